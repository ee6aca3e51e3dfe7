/** The frame of a staff screen: a heading, an optional line under it, then the content. */
export function StaffPage({
  title,
  intro,
  children,
  width = "max-w-5xl",
}: {
  title: string;
  intro?: React.ReactNode;
  children: React.ReactNode;
  width?: string;
}) {
  return (
    <div className={`mx-auto ${width} px-4 py-10 sm:px-6`}>
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900">{title}</h1>
      {intro ? <div className="mt-2 text-slate-700">{intro}</div> : null}
      {children}
    </div>
  );
}
