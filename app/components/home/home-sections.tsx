import { Link } from "react-router";
import { Picture } from "~/components/picture";
import { serviceTiles } from "~/content/home";
import type { SiteContent } from "~/content/site-content";

type Home = SiteContent["home"];

/** The green band under the slides: what the company is, and the way to the about page. */
export function ProfessionalBand({ professionalBand }: { professionalBand: Home["professionalBand"] }) {
  return (
    <section className="bg-brand-800 text-white">
      <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-12 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 className="text-3xl font-bold tracking-tight capitalize">{professionalBand.heading}</h2>
          <p className="mt-3 max-w-2xl text-brand-50">{professionalBand.text}</p>
        </div>
        <Link
          to="/learnmore"
          className="shrink-0 rounded-full bg-white px-6 py-3 font-semibold text-brand-900 hover:bg-brand-50"
        >
          {professionalBand.buttonLabel}
        </Link>
      </div>
    </section>
  );
}

/** What the company covers, as a line of points. */
export function CoveredBlurb({ covered: coveredBlurb }: { covered: Home["covered"] }) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h2 className="text-3xl font-bold tracking-tight text-slate-900">{coveredBlurb.heading}</h2>
      <p className="mt-4 max-w-3xl text-lg text-slate-700">{coveredBlurb.text}</p>
      <ul className="mt-6 flex flex-wrap gap-3">
        {coveredBlurb.points.map((point) => (
          <li key={point} className="rounded-full bg-brand-50 px-4 py-2 font-medium text-brand-900">
            {point}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The services, a tile each, linking to their pages (the footer's #services). */
export function ServiceTiles({ home }: { home: Home }) {
  return (
    <section id="services" aria-labelledby="services-heading" className="scroll-mt-32 bg-white pb-16">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="services-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          {home.servicesHeading}
        </h2>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {serviceTiles
            .map(({ id, path }) => ({ id, path, ...home.serviceTiles[id] }))
            .map((tile) => (
              <li key={tile.id}>
                <Link
                  to={tile.path}
                  className="group block overflow-hidden rounded-xl bg-white shadow ring-1 ring-slate-200 hover:shadow-lg focus-visible:outline-3 focus-visible:outline-brand-700"
                >
                  <Picture
                    image={{ ...tile.image, alt: "" }}
                    sizes="(min-width: 1024px) 270px, (min-width: 640px) 50vw, 100vw"
                    className="aspect-[4/3] h-auto w-full object-cover transition-transform group-hover:scale-105 motion-reduce:transition-none"
                  />
                  <span className="block px-4 py-3 text-lg font-semibold text-slate-900">{tile.name}</span>
                </Link>
              </li>
            ))}
        </ul>
      </div>
    </section>
  );
}

/** The clients' logos and what they say of the company. */
export function ClientsAndTestimonials({ home }: { home: Home }) {
  return (
    <section aria-labelledby="clients-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h2 id="clients-heading" className="text-center text-2xl font-bold tracking-tight text-slate-900">
        {home.clientsHeading}
      </h2>
      <ul className="mt-8 grid grid-cols-2 items-center gap-6 md:grid-cols-4">
        {home.clientLogos.map((logo) => (
          <li key={logo.id} className="flex justify-center">
            <Picture image={logo.image} sizes="160px" className="h-20 w-auto" />
          </li>
        ))}
      </ul>
      {home.testimonials.map((testimonial) => (
        <figure key={testimonial.quote} className="mx-auto mt-14 max-w-3xl rounded-2xl bg-brand-50 p-8">
          <blockquote className="text-xl leading-relaxed text-slate-800">
            <p>“{testimonial.quote}”</p>
          </blockquote>
          <figcaption className="mt-4 font-semibold text-brand-900">
            {testimonial.reviewer}
            <span className="block text-sm font-normal text-slate-700">{testimonial.organisation}</span>
          </figcaption>
        </figure>
      ))}
    </section>
  );
}
