// Writes the build contract (mf-compat.json, issue 45) beside mf-manifest.json, and each exposed module's
// published declaration (@mf-types/<Name>.d.ts): what this build's code is, read from its sources by
// @app/api-surface. The deploy API gates releases, rollout steps and shell builds by it
// (docs/decisions/0038-compatibility-from-code.md). Production builds only: only they are released.
import { buildContract, declarationOf } from '@app/api-surface';
import webpack from 'webpack';

export const BUILD_CONTRACT_FILE = 'mf-compat.json';

export class BuildContractPlugin {
  /**
   * @param {object} o
   * @param {string} o.container
   * @param {string} o.dirname
   * @param {Record<string, string>} o.exposes
   * @param {string[]} o.sharedPackages the @app packages this build shares as singletons
   * @param {boolean} o.isShell
   */
  constructor(o) {
    this.options = o;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('BuildContractPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'BuildContractPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          let contract;
          try {
            contract = buildContract(this.options);
          } catch (error) {
            compilation.errors.push(new webpack.WebpackError(`build contract: ${error.message}`));
            return;
          }
          const { RawSource } = compiler.webpack.sources;
          compilation.emitAsset(BUILD_CONTRACT_FILE, new RawSource(`${JSON.stringify(contract, null, 1)}\n`));
          for (const [expose, exposed] of Object.entries(contract.exposes)) {
            const file = `@mf-types/${expose.replace(/^\.\//, '')}.d.ts`;
            compilation.emitAsset(file, new RawSource(declarationOf(contract.container, expose, exposed)));
          }
        },
      );
    });
  }
}
