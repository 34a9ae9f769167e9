// The webpack + Module Federation config factory. Every app's webpack.config.mjs is a few lines that call
// createConfig(); what differs between apps is data (name, port, exposes), never build logic.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { THEME_BOOT_SCRIPT, THEME_CSS } from '@app/ui/theme-css';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import TerserPlugin from 'terser-webpack-plugin';
import webpack from 'webpack';
import { appNamed } from './apps.mjs';
import { BuildContractPlugin } from './build-contract.mjs';
import { PrerenderPlugin } from './prerender.mjs';
import { HOST_SHARED_MODULES, SHARED_MODULES } from './shared.mjs';

// The build's environment, read here only (docs/configuration.md): NODE_ENV, when no mode is given, and
// API_BASE_URL, the API as the browser reaches it (a remote's dev frame; the shell's config.json in dev).
const { NODE_ENV, API_BASE_URL } = process.env;

// Loaders resolve from here (the factory's own dependencies), not from each app folder.
const require = createRequire(import.meta.url);

/**
 * A remote always calls the production JSX runtime (`jsx` from react/jsx-runtime and emotion's), also in a
 * development build: its host is the production shell whenever it runs inside the product (`pnpm dev:against`,
 * issue 47), and the shell shares no jsx-dev-runtime there, so a development one would be loaded on its own
 * with a React of its own (module-federation/core#3588). swc-loader would pick the development runtime from
 * webpack's mode; `development: false` keeps the contract. The shell itself follows the mode.
 */
const swcOptionsFor = (isRemote) => ({
  jsc: {
    parser: { syntax: 'typescript', tsx: true },
    target: 'es2022',
    transform: {
      react: {
        runtime: 'automatic',
        importSource: '@emotion/react',
        ...(isRemote ? { development: false } : {}),
      },
    },
  },
});

/**
 * react-router's package exports name only its development build (remix-run/react-router#14753), so a
 * production build would ship its dev checks and warnings. In production its entry points are pointed at
 * the production files directly.
 */
function productionAliases() {
  const routerDir = path.dirname(require.resolve('react-router/package.json'));
  return {
    'react-router$': path.join(routerDir, 'dist/production/index.mjs'),
    'react-router/dom$': path.join(routerDir, 'dist/production/dom-export.mjs'),
  };
}

/** MF's plugin that puts the runtime on globalThis for remotes built with `externalRuntime`, as ESM. */
function injectRuntimePluginPath() {
  const enhanced = createRequire(require.resolve('@module-federation/enhanced'));
  // Resolves to the package's CommonJS build; its ESM build sits beside it.
  return enhanced.resolve('@module-federation/inject-external-runtime-core-plugin').replace(/\.cjs$/, '.js');
}

/**
 * Never in the shared chunk: libraries the shell loads only once the page is idle (web-vitals), and the
 * contracts' admin-only entries (`@app/contracts/outbox`, `/admin-paths`, …, issue 34), which only the admin
 * pages' lazy chunks import: in the shared chunk, every visitor's first screen would carry them.
 */
const LAZY_LIBRARIES = new RegExp(
  [
    /[\\/]node_modules[\\/](\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?web-vitals[\\/]/.source,
    /[\\/]packages[\\/]contracts[\\/]src[\\/](admin-paths|admin-members|leads|site-admin|outbox|paging|deploy|rollouts-admin|compatibility)\.ts$/
      .source,
  ].join('|'),
);

/**
 * The host provides every shared module, and all of them load before its first render. Webpack gives each
 * its own chunk (16 files for the shell), and each chunk's <script> insertion costs the main thread
 * about 1 ms on a fast laptop, 5 ms on a throttled phone, in one task. The libraries go in one file instead;
 * the shell's own code keeps its chunks (its lazy pages stay lazy).
 */
const hostSplitChunks = {
  cacheGroups: {
    sharedLibraries: {
      // Modules with a file only: the federation's consume modules stay where webpack puts them (moved into
      // this chunk, they would wait for the very chunk they are in). Libraries the shell loads only once the
      // page is idle (web-vitals, docs/decisions/0027-health-gate.md) keep their own chunk: in this one, every
      // first screen would wait for them.
      test: (module) =>
        /[\\/](node_modules|packages)[\\/]/.test(module.resource ?? '') &&
        !LAZY_LIBRARIES.test(module.resource ?? ''),
      chunks: 'async',
      name: 'shared-libraries',
      enforce: true,
    },
  },
};

/**
 * A public/ file as the build emits it: as written, except the runtime config of a development build, whose
 * apiBaseUrl follows API_BASE_URL (`pnpm dev` sets it from API_PORT) like the edge's pages do. Production
 * builds stay byte for byte what public/ holds: a release's content must not depend on who built it.
 */
export function publicFileContent(file, bytes, apiBaseUrl) {
  if (file !== 'config.json' || !apiBaseUrl) return bytes;
  return Buffer.from(`${JSON.stringify({ ...JSON.parse(bytes.toString('utf8')), apiBaseUrl }, null, 2)}\n`);
}

/** Copies the app's public/ folder (e.g. the shell's default config.json) into the build output. */
class CopyPublicPlugin {
  constructor(dir, apiBaseUrl) {
    this.dir = dir;
    this.apiBaseUrl = apiBaseUrl;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('CopyPublicPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CopyPublicPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          if (!fs.existsSync(this.dir)) return;
          for (const file of fs.readdirSync(this.dir)) {
            const full = path.join(this.dir, file);
            compilation.fileDependencies.add(full);
            const content = publicFileContent(file, fs.readFileSync(full), this.apiBaseUrl);
            compilation.emitAsset(file, new webpack.sources.RawSource(content));
          }
        },
      );
    });
  }
}

/**
 * @param {object} o
 * @param {string} o.app             the app's folder name (e.g. 'mf-account'); its container name and port
 *   come from tooling/webpack/apps.mjs
 * @param {string} o.dirname         the app folder
 * @param {string} o.title           HTML title for the page the app serves on its own
 * @param {'development'|'production'} [o.mode]
 * @param {string[]} [o.preloadJson]  JSON files the page fetches at startup: preloaded by the HTML, so they
 *   arrive while the first script is still loading (the shell's config and deployment manifest)
 * @param {string[]} [o.privateCopies]  shared @app packages this remote bundles a copy of its own instead of
 *   using the shell's (issue 45's second way forward when the live shell lacks what it needs; a context
 *   package's private copy has a context of its own, so it is a last resort: docs/shipping.md)
 */
export function createConfig({ app, dirname, title, mode, preloadJson = [], privateCopies = [] }) {
  // What a remote exposes is data of tooling/webpack/apps.mjs (the shell's type check reads it too).
  const { container: name, port, exposes } = appNamed(app);
  const isProd = (mode ?? NODE_ENV ?? 'production') === 'production';
  // The shell is the one app that exposes nothing: it hosts, the others are its remotes.
  const isShell = !exposes;
  if (isShell && privateCopies.length)
    throw new Error('the shell provides every shared module: no private copies');
  const shared = Object.fromEntries(
    Object.entries(isShell ? HOST_SHARED_MODULES : SHARED_MODULES).filter(
      ([module]) => !privateCopies.includes(module),
    ),
  );
  return {
    mode: isProd ? 'production' : 'development',
    context: dirname,
    entry: './src/index.ts',
    // Production maps are written beside the build for the team (and kept in releases), but the bundles do
    // not point at them and the edge answers them only with SERVE_SOURCE_MAPS=1 (issue 11).
    devtool: isProd ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(dirname, 'dist'),
      // 'auto' lets a remote's chunks load from wherever its manifest was served.
      publicPath: 'auto',
      // Entry files keep a stable name (the MF runtime rejects [contenthash] there) and are served no-cache;
      // every other chunk is content-hashed and cached forever (services/edge/src/static-files.ts).
      filename: '[name].js',
      chunkFilename: isProd ? '[name].[contenthash:10].js' : '[name].js',
      uniqueName: name,
      // Named explicitly because the shell replaces it when it swaps a failed canary for stable
      // (shell/src/federation/remotes.ts): two builds of one remote share this array and their module ids.
      chunkLoadingGlobal: `webpackChunk${name}`,
      clean: true,
      // Always write, so dist's mtimes say when it was built (scripts/build.mjs uses them to skip fresh apps).
      compareBeforeEmit: false,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'], alias: isProd ? productionAliases() : {} },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          exclude: /node_modules/,
          use: { loader: require.resolve('swc-loader'), options: swcOptionsFor(!isShell) },
        },
      ],
    },
    optimization: {
      minimize: isProd,
      // swc's minifier: several times faster than terser on 2 cores, a few % larger output.
      minimizer: isProd ? [new TerserPlugin({ minify: TerserPlugin.swcMinify, extractComments: false })] : [],
      ...(isProd && isShell ? { splitChunks: hostSplitChunks } : {}),
    },
    performance: { hints: false },
    plugins: [
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes: exposes ?? {},
        shared,
        // Remotes are registered at run time from config.json, so build-time types are of no use here.
        dts: false,
        manifest: { fileName: 'mf-manifest.json' },
        shareStrategy: 'loaded-first',
        // One Module Federation runtime for the page: the shell provides it, remotes use it instead of each
        // carrying a copy (~22 KiB gzip per remote). Production only: a remote's standalone page has no
        // shell to provide it, so teams run a remote alone with `pnpm --filter <remote> dev`.
        // The shell's runtime runs only in browsers: `target: 'web'` drops its Node loading paths (-1.7 KiB).
        experiments: isProd && !isShell ? { externalRuntime: true } : { optimization: { target: 'web' } },
        // The host provides it with the ESM build of MF's own inject plugin: `provideExternalRuntime: true`
        // adds the CommonJS build, which pulls in a second copy of the runtime (+24 KiB gzip in main.js).
        runtimePlugins: isProd && isShell ? [injectRuntimePluginPath()] : [],
      }),
      new HtmlWebpackPlugin({
        // One page template for every app: the theme is chosen and painted before any bundle runs.
        template: path.join(import.meta.dirname, 'index.html'),
        title,
        // Absolute, so a deep link (/post/42/edit) loads /main.js and not /post/42/main.js.
        publicPath: '/',
        templateParameters: {
          title,
          themeCss: THEME_CSS,
          themeBootScript: THEME_BOOT_SCRIPT,
          // crossorigin: the fetch() that uses them is a CORS-mode request, and a preload must match it.
          preloads: preloadJson
            .map((href) => `<link rel="preload" href="${href}" as="fetch" crossorigin="anonymous" />`)
            .join('\n    '),
          standaloneNotice:
            isProd && !isShell
              ? `<main class="standalone-notice"><h1>${name.replace(/_/g, '-')}: production build</h1><p>This remote runs inside the shell: open <a href="http://localhost:3000">http://localhost:3000</a>. To work on it alone, run <code>pnpm --filter ${name.replace(/_/g, '-')} dev</code>.</p></main>`
              : '',
        },
        // The shell's page must not be cached; hashed assets may be cached forever (see services/edge/src/static-files.ts).
        hash: false,
        // A remote's production build uses the shell's federation runtime (externalRuntime above), so its
        // own page cannot start it: the page says where the remote runs instead of staying blank.
        ...(isProd && !isShell ? { inject: false } : {}),
      }),
      new CopyPublicPlugin(path.join(dirname, 'public'), isProd ? undefined : API_BASE_URL),
      // First screens as HTML (docs/decisions/0018-prerendered-first-screen.md): production builds only.
      ...(isProd ? [new PrerenderPlugin({ appDir: dirname, isShell })] : []),
      ...(isProd
        ? [
            new BuildContractPlugin({
              container: name,
              dirname,
              exposes: exposes ?? {},
              sharedPackages: Object.keys(shared).filter((m) => m.startsWith('@app/') && shared[m].singleton),
              isShell,
            }),
          ]
        : []),
      new webpack.DefinePlugin({
        'process.env.NODE_ENV': JSON.stringify(isProd ? 'production' : 'development'),
        // Only used by a remote's standalone dev frame; the shell reads the API address from config.json.
        'process.env.API_BASE_URL': JSON.stringify(API_BASE_URL ?? 'http://localhost:4000'),
      }),
    ],
    devServer: {
      port,
      historyApiFallback: true,
      static: false,
      hot: false,
      liveReload: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      client: { overlay: false },
    },
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'warn' },
  };
}
