const UNIT_BYTES = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 } as const;

export const BYTE_SIZE_PATTERN = /^(\d+)(b|kb|mb|gb|tb)?$/i;

/** Bytes of a size setting: `0`, `512KB`, `160MB`, `1GB` (binary units, as the forms' caps are). A bare number is bytes. */
export function parseByteSize(value: string): number {
  const match = BYTE_SIZE_PATTERN.exec(value);
  if (!match) throw new Error(`not a size: "${value}"`);
  return Number(match[1]) * UNIT_BYTES[(match[2] ?? "b").toLowerCase() as keyof typeof UNIT_BYTES];
}
