import type { PropsShape } from '../build-contract';
import { type BuildSide, type CompatEntry, type GateConflict, truncateType } from './types';

/**
 * Exposed interfaces: what a caller passes to another container's exposed module ('mf_survey/App') against
 * what that module accepts. General on purpose: the shell calls every remote's './App' today, and a remote
 * may one day call another; any container's `calls` meets any other container's `exposes`.
 */

/** Why a call shape does not fit an accepted shape: props it needs that are not passed, and those of another type. */
function misfit(call: PropsShape, accepted: PropsShape): { missing: string[]; different: string[] } {
  const missing: string[] = [];
  const different: string[] = [];
  for (const [name, prop] of Object.entries(accepted)) {
    const passed = call[name];
    if (passed === undefined) {
      if (!prop.optional) missing.push(name);
    } else if (passed.type !== prop.type) {
      different.push(`${name} (passed ${truncateType(passed.type)}, accepts ${truncateType(prop.type)})`);
    }
  }
  // A prop passed that the shape does not declare is ignored by the module, so it never misfits.
  return { missing, different };
}

const fits = (m: ReturnType<typeof misfit>) => m.missing.length === 0 && m.different.length === 0;

/** '{}' or '{ onClose, id? }': a props shape in a table cell. */
export function describeShape(shape: PropsShape): string {
  const names = Object.entries(shape).map(([name, prop]) => `${name}${prop.optional ? '?' : ''}`);
  return names.length ? `{ ${names.join(', ')} }` : '{}';
}

function callDetail(shape: PropsShape, accepted: PropsShape[], exposeName: string): string {
  // Name the problems against the accepted shape that comes closest, so the person sees one fix.
  const best = accepted
    .map((candidate) => misfit(shape, candidate))
    .sort((a, b) => a.missing.length + a.different.length - (b.missing.length + b.different.length))[0];
  const parts = [
    best?.missing.length ? `missing ${best.missing.join(', ')}` : '',
    best?.different.length ? `different ${best.different.join('; ')}` : '',
  ].filter(Boolean);
  return `called with ${describeShape(shape)}, which ${exposeName} does not accept (it accepts ${accepted.map(describeShape).join(' | ') || 'nothing'})${parts.length ? `: ${parts.join('; ')}` : ''}`;
}

/** What `caller` passes to `callee`'s exposed modules, module by module. */
export function callEntries(caller: BuildSide, callee: BuildSide): CompatEntry[] {
  const container = callee.contract?.container;
  if (!caller.contract || !container) return [];
  const prefix = `${container}/`;
  const entries: CompatEntry[] = [];
  for (const [target, shapes] of Object.entries(caller.contract.calls)) {
    if (!target.startsWith(prefix)) continue;
    const exposeName = `./${target.slice(prefix.length)}`;
    const exposed = callee.contract?.exposes[exposeName];
    const base = {
      kind: 'exposed-interface' as const,
      package: target,
      needs: caller.who,
      provider: callee.who,
    };
    const conflicts: GateConflict[] = exposed
      ? shapes
          .filter((shape) => !exposed.props.some((accepted) => fits(misfit(shape, accepted))))
          .map((shape) => ({ ...base, detail: callDetail(shape, exposed.props, exposeName) }))
      : [
          {
            ...base,
            detail: `${container} exposes no ${exposeName} (it exposes ${Object.keys(callee.contract?.exposes ?? {}).join(', ') || 'nothing'})`,
          },
        ];
    entries.push({
      package: target,
      required: `props ${shapes.map(describeShape).join(' or ') || 'none'}`,
      provided: exposed ? `accepts ${exposed.props.map(describeShape).join(' | ')}` : 'not exposed',
      conflicts,
    });
  }
  return entries;
}
