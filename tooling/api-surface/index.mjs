export { buildContract, declarationOf, federationRuntimeVersion } from './contract.mjs';
export { importsOf, sourceFiles, WHOLE_PACKAGE } from './imports.mjs';
export { callsOf, exposedModule } from './interfaces.mjs';
export { createProgram, packageEntry } from './program.mjs';
export { surfaceKey, surfaceOf } from './surface.mjs';
export { typeWriter } from './type-text.mjs';
