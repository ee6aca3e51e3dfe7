/** The company's round lightning mark, drawn inline so the header never waits for an image. */
export function CompanyMarkIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" width="32" height="32" className="shrink-0">
      <circle cx="16" cy="16" r="16" className="fill-brand-700" />
      <path d="M18 4 9 18h6l-2 10 10-15h-6z" fill="#fff" />
    </svg>
  );
}
