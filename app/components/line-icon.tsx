/** A 24-unit outline icon drawn in the text colour; decorative, so screen readers skip it. */
export function LineIcon({ size, path }: { size: number; path: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d={path} strokeLinecap="round" />
    </svg>
  );
}
