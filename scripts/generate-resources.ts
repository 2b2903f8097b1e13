// Writes src/shared/generated/resources.ts from the definitions (src/shared/resources/manifest.ts):
// `npm run generate:resources` after adding or changing a definition.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { manifestSource, resourceManifest } from '../src/shared/resources/manifest';
import { resourceDefinitions } from '../src/shared/resources/registry';
import { specRoutes } from '../src/shared/routes';

const target = fileURLToPath(new URL('../src/shared/generated/resources.ts', import.meta.url));
writeFileSync(target, manifestSource(resourceManifest(resourceDefinitions, specRoutes)));
console.log(`Wrote ${target}`);
