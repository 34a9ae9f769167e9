import * as v from 'valibot';

/** Pieces several entity files build on; not part of the package's public names. */
export const NullableString = v.nullable(v.string());
