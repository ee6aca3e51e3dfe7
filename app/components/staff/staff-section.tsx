/** A part of a staff screen under its heading, which names the section for screen readers (`headingId`). */
export function StaffSection({
  headingId,
  title,
  className,
  children,
}: {
  headingId: string;
  title: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={headingId} className={className}>
      <h2 id={headingId} className="text-xl font-bold text-brand-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
