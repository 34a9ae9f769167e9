// A type written out in TypeScript, structurally: what a consumer compiled against, so that two builds of a
// package compare by what their exports are, not by the names of the interfaces behind them (a prop added to
// an interface changes the text of every export that uses it). Library types (react, emotion, the DOM) are
// not expanded but named: they are gated by their package's major version, and writing out React's types
// would make every surface thousands of lines long.
import ts from 'typescript';

const NAME_FLAGS =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseFullyQualifiedType |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope |
  ts.TypeFormatFlags.WriteArrayAsGenericType;

/** Types written as their name: primitives, literals, type parameters, `object`. */
const NAMED_FLAGS =
  ts.TypeFlags.Any |
  ts.TypeFlags.Unknown |
  ts.TypeFlags.String |
  ts.TypeFlags.Number |
  ts.TypeFlags.Boolean |
  ts.TypeFlags.BigInt |
  ts.TypeFlags.ESSymbol |
  ts.TypeFlags.UniqueESSymbol |
  ts.TypeFlags.Void |
  ts.TypeFlags.Undefined |
  ts.TypeFlags.Null |
  ts.TypeFlags.Never |
  ts.TypeFlags.Literal |
  ts.TypeFlags.TemplateLiteral |
  ts.TypeFlags.StringMapping |
  ts.TypeFlags.TypeParameter |
  ts.TypeFlags.NonPrimitive |
  ts.TypeFlags.Index |
  ts.TypeFlags.IndexedAccess |
  ts.TypeFlags.Conditional |
  ts.TypeFlags.Substitution;

/** Deeper than this, a type is named: enough for props of props, and it bounds the text. */
const MAX_DEPTH = 6;

/** Whether a declaration comes from a library (node_modules, TypeScript's lib files) rather than our code. */
function isLibraryFile(sourceFile, program) {
  return sourceFile.fileName.includes('/node_modules/') || program.isSourceFileDefaultLibrary(sourceFile);
}

function declaredInLibrary(symbol, program) {
  const declarations = symbol?.declarations ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((declaration) => isLibraryFile(declaration.getSourceFile(), program))
  );
}

/** Quotes a property name that is not an identifier. */
function propertyName(name) {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * @param {ts.Program} program
 * @returns {(type: ts.Type) => string} the writer, bound to one program's checker
 */
export function typeWriter(program) {
  const checker = program.getTypeChecker();
  const name = (type) => checker.typeToString(type, undefined, NAME_FLAGS);

  function isLibraryType(type) {
    if (type.aliasSymbol) return declaredInLibrary(type.aliasSymbol, program);
    const symbol = type.getSymbol();
    // Anonymous object and function types carry '__type' / '__object' symbols declared where they are written.
    return symbol ? declaredInLibrary(symbol, program) : false;
  }

  function signature(sig, depth, seen, arrow) {
    const params = sig.getTypeParameters()?.map((p) => name(p)) ?? [];
    const args = sig.getParameters().map((parameter) => {
      const declaration = parameter.valueDeclaration;
      const optional =
        declaration && ts.isParameter(declaration) && (declaration.questionToken || declaration.initializer);
      const rest = declaration && ts.isParameter(declaration) && declaration.dotDotDotToken;
      const type = checker.getTypeOfSymbol(parameter);
      return `${rest ? '...' : ''}${parameter.getName()}${optional ? '?' : ''}: ${write(type, depth + 1, seen)}`;
    });
    const returns = write(checker.getReturnTypeOfSignature(sig), depth + 1, seen);
    const generics = params.length ? `<${params.join(', ')}>` : '';
    return arrow
      ? `${generics}(${args.join(', ')}) => ${returns}`
      : `${generics}(${args.join(', ')}): ${returns}`;
  }

  /** Own members only for an interface of ours that extends library interfaces: those are named (`& Base`). */
  function libraryBases(type) {
    if (!(type.flags & ts.TypeFlags.Object) || !(type.objectFlags & ts.ObjectFlags.ClassOrInterface))
      return [];
    return (checker.getBaseTypes(type) ?? []).filter(isLibraryType);
  }

  function object(type, depth, seen) {
    const calls = type.getCallSignatures();
    const constructs = type.getConstructSignatures();
    const bases = libraryBases(type);
    const properties = checker
      .getPropertiesOfType(type)
      .filter((property) => !(bases.length && declaredInLibrary(property, program)));
    const indexes = checker.getIndexInfosOfType(type);
    if (calls.length === 1 && !constructs.length && !properties.length && !indexes.length && !bases.length) {
      return `(${signature(calls[0], depth, seen, true)})`;
    }
    const members = [
      ...indexes.map(
        (info) =>
          `${info.isReadonly ? 'readonly ' : ''}[key: ${name(info.keyType)}]: ${write(info.type, depth + 1, seen)}`,
      ),
      ...calls.map((sig) => signature(sig, depth, seen, false)),
      ...constructs.map((sig) => `new ${signature(sig, depth, seen, false)}`),
      ...properties
        .map((property) => {
          const readonly = isReadonly(property) ? 'readonly ' : '';
          const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
          const propertyType = checker.getTypeOfSymbol(property);
          return `${readonly}${propertyName(property.getName())}${optional}: ${write(propertyType, depth + 1, seen)}`;
        })
        .sort(),
    ];
    const body = members.length ? `{ ${members.join('; ')} }` : '{}';
    return bases.length ? [body, ...bases.map(name)].join(' & ') : body;
  }

  function isReadonly(property) {
    return (property.declarations ?? []).some(
      (declaration) => (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly) !== 0,
    );
  }

  /** A library type by its name, with its type arguments written out: ReadonlyArray<{ id: string }>. */
  function generic(symbol, args, type, depth, seen) {
    if (!args?.length || !symbol) return name(type);
    // The checker's own name for it (qualified as people read it: React.HTMLAttributes), minus its arguments.
    const full = name(type);
    const qualified = full.includes('<') ? full.slice(0, full.indexOf('<')) : full;
    return `${qualified}<${args.map((arg) => write(arg, depth + 1, seen)).join(', ')}>`;
  }

  /** @param {ts.Type} type */
  function write(type, depth = 0, seen = new Set()) {
    if (type.flags & NAMED_FLAGS) return name(type);
    if (type.flags & ts.TypeFlags.EnumLike) return name(type);
    // A library's alias (React.ReactNode) is named before it is taken apart as the union it is; its type
    // arguments (ours, often) are written out.
    if (type.aliasSymbol && declaredInLibrary(type.aliasSymbol, program)) {
      return generic(type.aliasSymbol, type.aliasTypeArguments, type, depth, seen);
    }
    if (type.isUnion()) {
      const members = type.types.map((member) => write(member, depth, seen));
      // `boolean` is the union true | false: keep the name people wrote.
      const text =
        members.includes('true') && members.includes('false')
          ? ['boolean', ...members.filter((m) => m !== 'true' && m !== 'false')]
          : members;
      return [...new Set(text)].sort().join(' | ');
    }
    if (type.isIntersection()) return type.types.map((member) => write(member, depth, seen)).join(' & ');
    if (depth > MAX_DEPTH || seen.has(type)) return name(type);
    if (isLibraryType(type)) {
      const reference = type.flags & ts.TypeFlags.Object && type.objectFlags & ts.ObjectFlags.Reference;
      return generic(
        type.getSymbol(),
        reference ? checker.getTypeArguments(type) : undefined,
        type,
        depth,
        seen,
      );
    }
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type);
      return `Array<${element ? write(element, depth + 1, seen) : 'unknown'}>`;
    }
    if (checker.isTupleType(type)) {
      return `[${checker
        .getTypeArguments(type)
        .map((element) => write(element, depth + 1, seen))
        .join(', ')}]`;
    }
    if (type.flags & ts.TypeFlags.Object) {
      seen.add(type);
      try {
        return object(type, depth, seen);
      } finally {
        seen.delete(type);
      }
    }
    return name(type);
  }

  return write;
}
