// The rules of direction (ARCHITECTURE.md "Layout") as eslint.config.js enforces them: lint a snippet
// as if it were a file at a given path and see whether local/import-direction reports it.
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const cwd = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;

// The first lint loads the config and the TypeScript parser (seconds on a busy machine): done here,
// under a hook's generous timeout, so each test below only lints.
beforeAll(async () => {
  eslint = new ESLint({ cwd });
  await eslint.lintText('export {};\n', { filePath: path.join(cwd, 'src/shared/warm-up.ts') });
}, 60_000);

/** The import-direction messages for `code` linted as `file` (repo-relative; it need not exist). */
async function direction(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(cwd, file) });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'local/import-direction').map((m) => m.message);
}

describe('import direction', () => {
  it('reports src/client importing src/server', async () => {
    expect(await direction('src/client/lib/x.ts', "import { db } from '../../server/db/client';\nexport { db };\n")).toEqual([
      expect.stringContaining('src/client must not import src/server'),
    ]);
    expect(await direction('src/client/features/profile/x.tsx', "export const load = () => import('../../../server/config');\n")).toHaveLength(1);
  });

  it('reports src/shared importing a Node module, src/client or src/server', async () => {
    expect(await direction('src/shared/x.ts', "import { readFileSync } from 'node:fs';\nexport { readFileSync };\n")).toEqual([
      expect.stringContaining('must not import the Node module "node:fs"'),
    ]);
    expect(await direction('src/shared/x.ts', "import path from 'path';\nexport { path };\n")).toHaveLength(1);
    expect(await direction('src/shared/x.ts', "import type { Api } from '../client/lib/api';\nexport type { Api };\n")).toEqual([
      expect.stringContaining('must not import src/client'),
    ]);
    expect(await direction('src/shared/resources/x.ts', "export * from '../../server/db/schema/accounts';\n")).toEqual([
      expect.stringContaining('must not import src/server'),
    ]);
  });

  it('reports src/server importing src/client', async () => {
    expect(await direction('src/server/modules/x/routes.ts', "import { api } from '../../../client/lib/api';\nexport { api };\n")).toEqual([
      expect.stringContaining('src/server must not import src/client'),
    ]);
  });

  it('reports a feature importing another feature, not the router or the same feature', async () => {
    expect(await direction('src/client/features/time-sheet/x.tsx', "import { Dashboard } from '../dashboard/dashboard';\nexport { Dashboard };\n")).toEqual([
      expect.stringContaining('The feature "time-sheet" must not import the feature "dashboard"'),
    ]);
    expect(await direction('src/client/routes.tsx', "import { Dashboard } from './features/dashboard/dashboard';\nexport { Dashboard };\n")).toEqual([]);
    expect(await direction('src/client/features/time-sheet/x.tsx', "import { UploadDialog } from './upload-dialog';\nexport { UploadDialog };\n")).toEqual([]);
  });

  it('allows the permitted directions', async () => {
    const code = [
      "import { routePath } from '../../shared/routes';",
      "import { Badge } from '../ui/badge';",
      "import { z } from 'zod';",
      'export { routePath, Badge, z };',
      '',
    ].join('\n');
    expect(await direction('src/client/lib/x.ts', code)).toEqual([]);
    expect(await direction('src/client/features/setting/x.tsx', "import { api } from '../../lib/api';\nimport { Badge } from '../../ui/badge';\nexport { api, Badge };\n")).toEqual([]);
    expect(await direction('src/server/modules/x/routes.ts', "import { readFile } from 'node:fs/promises';\nimport { roleNames } from '../../../shared/permissions';\nexport { readFile, roleNames };\n")).toEqual([]);
    // src/shared/resources/client.ts is a shared file that happens to be called "client".
    expect(await direction('src/shared/resources/x.ts', "import { client } from './client';\nexport { client };\n")).toEqual([]);
  });
});
