// The interface between containers: what an exposed module's default export accepts (its props, one shape
// per member of a union), and what a caller passes. Compared by the gate prop by prop, so a remote that
// adds an optional prop still fits the shell that does not pass it, and one that requires a new prop does not.
import ts from 'typescript';
import { moduleOf, resolved } from './program.mjs';
import { typeWriter } from './type-text.mjs';

/** @returns {Array<Record<string, {type: string, optional: boolean}>>} */
function shapesOf(program, type) {
  const checker = program.getTypeChecker();
  const write = typeWriter(program);
  const members = type.isUnion() ? type.types : [type];
  return members.map((member) =>
    Object.fromEntries(
      checker
        .getPropertiesOfType(member)
        .map((property) => [
          property.getName(),
          {
            type: write(checker.getNonNullableType(checker.getTypeOfSymbol(property))),
            optional: (property.flags & ts.SymbolFlags.Optional) !== 0,
          },
        ])
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );
}

/** What the default export of an exposed module accepts: its type written out, and its props' shapes. */
export function exposedModule(program, file) {
  const checker = program.getTypeChecker();
  const exported = checker.getExportsOfModule(moduleOf(program, file)).find((s) => s.getName() === 'default');
  if (!exported)
    throw new Error(`${file} has no default export (an exposed module's default is what the shell renders)`);
  const symbol = resolved(checker, exported);
  const type = checker.getTypeOfSymbol(symbol);
  const [signature] = type.getCallSignatures();
  const parameter = signature?.getParameters()[0];
  const props = parameter ? checker.getTypeOfSymbol(parameter) : undefined;
  return {
    type: typeWriter(program)(type),
    props: props ? shapesOf(program, checker.getNonNullableType(props)) : [{}],
  };
}

/**
 * What a caller passes to each container's './App', read from an interface in `file` whose properties are
 * container names and whose types are the props passed (packages/federation's ShellCalls).
 * @returns {Record<string, Array<Record<string, {type: string, optional: boolean}>>>} 'mf_research/App' -> shapes
 */
export function callsOf(program, file, interfaceName) {
  const checker = program.getTypeChecker();
  const symbol = checker
    .getExportsOfModule(moduleOf(program, file))
    .find((s) => s.getName() === interfaceName);
  if (!symbol) throw new Error(`${file} does not export ${interfaceName}`);
  const target = resolved(checker, symbol);
  const calls = {};
  for (const container of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(target))) {
    calls[`${container.getName()}/App`] = shapesOf(program, checker.getTypeOfSymbol(container));
  }
  return Object.fromEntries(Object.entries(calls).sort(([a], [b]) => (a < b ? -1 : 1)));
}
