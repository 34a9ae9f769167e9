import type { BuildContract } from '../build-contract';
import type { BuildSide, SharedEntry } from './types';

/** Builds as the gate reads them, for the rules' tests: a shell and a remote that fit each other. */
const BUTTON = '(props: { variant?: "primary" | "secondary" }) => Element';
const SINGLETONS: SharedEntry[] = [
  { name: 'react', version: '19.3.1', requiredVersion: '19.3.1', singleton: true },
  { name: 'react/jsx-runtime', version: '19.3.1', singleton: true },
  { name: 'react-dom', version: '19.3.1', singleton: true },
  { name: '@app/router', version: '7.18.5', singleton: true },
  { name: '@emotion/react', version: '11.14.0', singleton: true },
  { name: '@app/ui', version: '1.0.0', singleton: true },
  { name: '@app/session', version: '1.0.0', singleton: true },
  { name: '@app/contracts', version: '1.0.0-s0123456789', singleton: false },
];

export function shellContract(over: Partial<BuildContract> = {}): BuildContract {
  return {
    schema: 1,
    container: 'shell',
    federationRuntime: '2.9.2',
    provides: {
      '@app/ui': { key: '3fa9c0d1e2', exports: { Button: BUTTON, Card: '() => Element' } },
      '@app/session': { key: '9a8b7c6d5e', exports: { useSession: '() => Session' } },
    },
    requires: {},
    exposes: {},
    calls: {
      'mf_research/App': [{}],
      'mf_survey/App': [{}, { onClose: { type: '() => void', optional: false } }],
    },
    ...over,
  };
}

export function remoteContract(over: Partial<BuildContract> = {}): BuildContract {
  return {
    schema: 1,
    container: 'mf_research',
    federationRuntime: '2.9.2',
    provides: {},
    requires: { '@app/ui': { Button: BUTTON }, '@app/session': { useSession: '() => Session' } },
    exposes: { './App': { type: '(_props: {}) => Element', props: [{}] } },
    calls: {},
    ...over,
  };
}

export const side = (
  who: string,
  contract: BuildContract | null,
  shared: SharedEntry[] | null = SINGLETONS,
): BuildSide => ({ who, contract, manifest: shared ? { shared } : null });

export const shellSide = (over?: Partial<BuildContract>, shared?: SharedEntry[]) =>
  side('the live shell', shellContract(over), shared);
export const remoteSide = (over?: Partial<BuildContract>, shared?: SharedEntry[]) =>
  side('mf-research 1.0.0-abcdefabcd (the release)', remoteContract(over), shared);
export { BUTTON, SINGLETONS };
