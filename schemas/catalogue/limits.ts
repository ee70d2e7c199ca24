/**
 * Integer ranges of the reference's columns, as OPTIONS reports them (`min_value`/`max_value`):
 * a field spreads the range of the column it mirrors, e.g. `field.int({ ...INT16, nullable: true })`.
 */
export const INT16 = { minValue: -32768, maxValue: 32767 } as const
export const UINT16 = { minValue: 0, maxValue: 32767 } as const
export const INT32 = { minValue: -2147483648, maxValue: 2147483647 } as const
export const UINT32 = { minValue: 0, maxValue: 2147483647 } as const
/** 64-bit bounds as a JSON number reads them (2^63 − 1 rounds to 2^63 in a double). */
export const INT64 = { minValue: -(2 ** 63), maxValue: 2 ** 63 } as const
