// The manual's sections, rendered from docs/manual/*.md at build time (vite.config.ts `userManual`).
declare module 'virtual:user-manual' {
  export interface ManualSection { id: string; area: string; title: string; html: string; text: string }
  export const sections: ManualSection[];
}
