import type { Option } from '@app/ui';

/** A contracts option list ({values, labels}) as the {value, label} pairs the inputs render. */
export function optionsOf<T extends string>(list: {
  values: readonly T[];
  labels: Record<T, string>;
}): readonly Option[] {
  return list.values.map((value) => ({ value, label: list.labels[value] }));
}
