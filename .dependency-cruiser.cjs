/**
 * pnpm lint's dependency checks (issue 35). No import cycles: no module may import itself back, through any
 * path, anywhere in the workspace's sources. A cycle means two files are one unit split in two, or a shared piece lives on the
 * wrong side; move that piece instead of silencing the rule. dependency-cruiser parses with TypeScript 5.9's
 * compiler API (its own copy: pnpm-workspace.yaml's packageExtensions; TypeScript 7 has no such API).
 * And packages used only through their exports: no relative path into another package's folder or into
 * scripts/, no @app/ subpath a package does not export. (Which package may use which is biome.json's
 * noRestrictedImports, written by scripts/import-boundaries.mjs.)
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle: move the piece both sides share to a module of its own, or where it belongs.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'package-internals',
      severity: 'error',
      comment:
        "A relative import out of one workspace package's folder into another's (or into scripts/): use the package by its name, through its package.json exports, and move what scripts/ holds for tests into a package.",
      from: { path: '^(shell|e2e|mf-[^/]+|packages/[^/]+|services/[^/]+|tooling/[^/]+|testing/[^/]+)/' },
      to: { dependencyTypes: ['local'], pathNot: '^$1/' },
    },
    {
      name: 'scripts-into-packages',
      severity: 'error',
      comment:
        "The root's scripts use a workspace package by its name, through its exports, never by a path into it.",
      from: { path: '^scripts/' },
      to: { dependencyTypes: ['local'], path: '^(shell|e2e|mf-[^/]+|packages|services|tooling|testing)/' },
    },
    {
      name: 'library-layer',
      severity: 'error',
      comment:
        'A shared library (packages/) depends on nothing above it: not on a deployable service (services/), build or release tooling (tooling/) or test support (testing/, which its tests may use).',
      from: { path: '^packages/', pathNot: '[.](test|spec)[.]|/src/test/|/vitest[.]config[.]' },
      to: { path: '^(services|tooling|testing)/' },
    },
    {
      name: 'service-layer',
      severity: 'error',
      comment:
        'A deployable service (services/) runs on shared libraries only: no build or release tooling, no test support outside its tests.',
      from: { path: '^services/', pathNot: '[.](test|spec)[.]|/(test|bench)/' },
      to: { path: '^(tooling|testing)/' },
    },
    {
      name: 'past-exports',
      severity: 'error',
      comment:
        "An import of a workspace package's path its package.json does not export (e.g. @app/x/src/y): add an export entry, or use what it exports.",
      from: {},
      to: { couldNotResolve: true, path: '^@app/' },
    },
  ],
  options: {
    parser: 'tsc',
    // Type-only imports count: a cycle of types is the same knot for the reader, and tomorrow's value import.
    tsPreCompilationDeps: true,
    exclude: { path: '(^|/)(node_modules|dist|coverage|test-results|playwright-report)/' },
    doNotFollow: { path: 'node_modules' },
    // Workspace packages are reached through their package.json exports, as the bundlers and Node reach them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'module', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
      mainFields: ['module', 'main'],
    },
  },
};
