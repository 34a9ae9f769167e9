import * as v from 'valibot';

/**
 * What a build's code is, for the compatibility gate (issue 45, docs/decisions/0038-compatibility-from-code.md).
 * Every production build writes it beside mf-manifest.json, derived from the sources by
 * tooling/api-surface (TypeScript's compiler API), never written by hand:
 * - `provides`: the public surface of each shared @app package the build carries (export name -> its type,
 *   written out in TypeScript), and a key that is a digest of that surface. On a page the shell's copy is the
 *   one every remote uses (singletons, loaded first), so the shell's `provides` is what the page has.
 * - `requires`: the exports of each shared @app package the build's own code imports (values only: types
 *   are erased), with the type it was compiled against. An export the provider lacks, or has with another
 *   type, is a conflict; an export nobody imports is free to change.
 * - `exposes`: what the container exposes ('./App'): the props its default export accepts, one shape per
 *   member of a union (mf-survey's App takes its routes' props or the modal's).
 * - `calls`: what the container loads from others ('mf_research/App') and the props it passes, one shape per
 *   call site kind. The shell calls every remote's './App'; remotes call nobody today.
 * - `federationRuntime`: the @module-federation/enhanced version built with (remotes run on the shell's).
 */
export const BUILD_CONTRACT_FILE = 'mf-compat.json';
export const BUILD_CONTRACT_SCHEMA = 1;

const TypeText = v.pipe(v.string(), v.maxLength(50_000));
/** Export name -> its type, written out in TypeScript (library types by name: `import("react").ReactNode`). */
export const SurfaceSchema = v.record(v.string(), TypeText);
export type Surface = v.InferOutput<typeof SurfaceSchema>;

export const PropSchema = v.object({ type: TypeText, optional: v.boolean() });
/** One props object: prop name -> its type and whether it may be left out. */
export const PropsShapeSchema = v.record(v.string(), PropSchema);
export type PropsShape = v.InferOutput<typeof PropsShapeSchema>;

export const ProvidedPackageSchema = v.object({
  /** A digest of `exports`: equal surfaces, equal keys (the package's compatibility key). */
  key: v.string(),
  exports: SurfaceSchema,
});
export type ProvidedPackage = v.InferOutput<typeof ProvidedPackageSchema>;

export const ExposedModuleSchema = v.object({
  /** The default export's type, written out. */
  type: TypeText,
  /** The props its default export accepts: any one of these shapes (a union's members). */
  props: v.array(PropsShapeSchema),
});
export type ExposedModule = v.InferOutput<typeof ExposedModuleSchema>;

export const BuildContractSchema = v.object({
  schema: v.literal(BUILD_CONTRACT_SCHEMA),
  /** The Module Federation container name ('shell', 'mf_research', …). */
  container: v.string(),
  federationRuntime: v.string(),
  provides: v.record(v.string(), ProvidedPackageSchema),
  requires: v.record(v.string(), SurfaceSchema),
  /** './App' -> what it accepts. */
  exposes: v.record(v.string(), ExposedModuleSchema),
  /** 'mf_research/App' -> the props shapes passed to its default export. */
  calls: v.record(v.string(), v.array(PropsShapeSchema)),
});
export type BuildContract = v.InferOutput<typeof BuildContractSchema>;

/** Parses a build's mf-compat.json text; throws with the reason when it is not one. */
export function parseBuildContract(text: string): BuildContract {
  const result = v.safeParse(BuildContractSchema, JSON.parse(text));
  if (!result.success) {
    const issue = result.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    throw new Error(`not a build contract${where ? ` (${where})` : ''}: ${issue.message}`);
  }
  return result.output;
}
