import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { declarationOf } from './contract.mjs';
import { importsOf, WHOLE_PACKAGE } from './imports.mjs';
import { callsOf, exposedModule } from './interfaces.mjs';
import { createProgram } from './program.mjs';
import { surfaceKey, surfaceOf } from './surface.mjs';

// Fixtures are written inside the repository so TypeScript resolves them with the workspace's options.
const dirs = [];
function project(files) {
  const dir = fs.mkdtempSync(path.join(import.meta.dirname, '.fixture-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function surface(source) {
  const dir = project({ 'index.ts': source });
  const entry = path.join(dir, 'index.ts');
  return surfaceOf(createProgram([entry]), entry);
}

const BASE = `
export interface ButtonProps { label: string; tone?: 'info' | 'danger' }
export function Button(props: ButtonProps): string { return props.label; }
export const LIMIT = 3;
export type Only = { erased: true };
`;

describe('a package surface', () => {
  it('lists each value export with its type written out, and leaves type-only exports out', () => {
    const exports = surface(BASE);
    expect(Object.keys(exports)).toEqual(['Button', 'LIMIT']);
    expect(exports.Button).toBe(
      '((props: { label: string; tone?: "danger" | "info" | undefined }) => string)',
    );
    expect(exports.LIMIT).toBe('3');
  });

  it('an added export leaves the others as they were; the key changes', () => {
    const before = surface(BASE);
    const after = surface(
      `${BASE}\nexport function renderWhenNear(height: string): string { return height; }`,
    );
    expect(after.renderWhenNear).toBe('((height: string) => string)');
    const { renderWhenNear: _added, ...rest } = after;
    expect(rest).toEqual(before);
    expect(surfaceKey(after)).not.toBe(surfaceKey(before));
  });

  it('a change deep in an interface changes the type of the export that uses it', () => {
    const before = surface(BASE);
    const after = surface(BASE.replace("tone?: 'info' | 'danger'", "tone: 'info' | 'danger'"));
    expect(after.Button).not.toBe(before.Button);
    expect(after.LIMIT).toBe(before.LIMIT);
  });

  it('equal sources give equal keys', () => {
    expect(surfaceKey(surface(BASE))).toBe(surfaceKey(surface(BASE)));
  });

  it('re-exports count as exports of the package', () => {
    const dir = project({
      'a.ts': 'export const a = (n: number) => n * 2;',
      'index.ts': "export { a } from './a';",
    });
    const entry = path.join(dir, 'index.ts');
    expect(surfaceOf(createProgram([entry]), entry)).toEqual({ a: '((n: number) => number)' });
  });
});

describe("an app's imports of shared packages", () => {
  it('collects value imports, leaves type-only ones and subpaths out, and takes a namespace import whole', () => {
    const dir = project({
      'one.tsx': [
        "import { Button, type ButtonProps } from '@app/ui';",
        "import type { Session } from '@app/session';",
        "import { THEME_CSS } from '@app/ui/theme-css';",
        "import * as session from '@app/session';",
      ].join('\n'),
      'two.ts': "export { usePageTitle } from '@app/ui';\nconst lazy = () => import('@app/api-client');",
    });
    const used = importsOf(
      [path.join(dir, 'one.tsx'), path.join(dir, 'two.ts')],
      ['@app/ui', '@app/session', '@app/api-client'],
    );
    expect([...used.get('@app/ui')].sort()).toEqual(['Button', 'usePageTitle']);
    expect([...used.get('@app/session')]).toEqual([WHOLE_PACKAGE]);
    expect([...used.get('@app/api-client')]).toEqual([WHOLE_PACKAGE]);
  });
});

describe('the interface between containers', () => {
  it("reads what an exposed module's default export accepts, one shape per union member", () => {
    const dir = project({
      'app.ts': [
        'export interface ModalProps { onClose: () => void; title?: string }',
        'export default function App(props: ModalProps | Record<never, never>) { return props; }',
      ].join('\n'),
    });
    const file = path.join(dir, 'app.ts');
    const exposed = exposedModule(createProgram([file]), file);
    expect(exposed.props).toEqual([
      { onClose: { type: '(() => void)', optional: false }, title: { type: 'string', optional: true } },
      {},
    ]);
    expect(declarationOf('mf_demo', './App', exposed)).toContain(
      'declare const App: (props: { onClose: (() => void); title?: string } | Record<never, never>) => unknown;',
    );
  });

  it('reads what a caller passes to each container from an interface naming them', () => {
    const dir = project({
      'calls.ts': 'export interface Calls { mf_a: Record<never, never>; mf_b: { onClose: () => void } }',
    });
    const file = path.join(dir, 'calls.ts');
    expect(callsOf(createProgram([file]), file, 'Calls')).toEqual({
      'mf_a/App': [{}],
      'mf_b/App': [{ onClose: { type: '(() => void)', optional: false } }],
    });
  });
});
