import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { errorScreenText } from "./components/error-screen";
import { textWrittenByServer, useInlinedSources } from "./components/inlined-sources";
import { useNonce } from "./components/nonce";
import { isPublicPage } from "./components/public-page-handle";
import { SiteChromeContext } from "./components/site-chrome";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { usesStaffFrame } from "./components/staff/staff-frame-handle";
import { PUBLISHED_COMPANY_ATTRIBUTES } from "./content/published-company";
import { siteChromeOf } from "./content/site-chrome";
import { siteContentOf } from "./services/site-content/site-content-cache.server";
import { readSiteUrl } from "./services/site-url.server";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

// A form sent while the server is down keeps its page and answers instead of the error screen.
export { revalidateUnlessAnsweredByBrowser as shouldRevalidate } from "./forms/form-route";

export function loader({ context }: Route.LoaderArgs) {
  return { siteUrl: readSiteUrl(), chrome: siteChromeOf(siteContentOf(context)) };
}

const STYLESHEET_ID = "inlined-stylesheet";

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const inlined = useInlinedSources();
  // The staff screens bring their own frame (header and <main>); everything else wears the public site's.
  const matches = useMatches();
  const staffFrame = matches.some((match) => usesStaffFrame(match.handle));
  const publicPage = matches.some((match) => isPublicPage(match.handle));
  // Missing only when the root loader failed: the page then goes without the site's header and footer.
  const chrome = useRouteLoaderData<typeof loader>("root")?.chrome;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#166534" />
        <style
          id={STYLESHEET_ID}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: our own build-time CSS, not user content
          dangerouslySetInnerHTML={{
            __html: inlined
              ? inlined.stylesheets[publicPage ? "publicPages" : "site"]
              : textWrittenByServer(STYLESHEET_ID),
          }}
        />
        <Meta />
        <Links />
      </head>
      <body
        className="flex min-h-screen flex-col bg-white text-slate-800 antialiased"
        {...{
          [PUBLISHED_COMPANY_ATTRIBUTES.name]: chrome?.company.name,
          [PUBLISHED_COMPANY_ATTRIBUTES.phone]: chrome?.company.phone,
        }}
      >
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        {staffFrame || !chrome ? (
          <SiteChromeContext value={chrome}>{children}</SiteChromeContext>
        ) : (
          <SiteChromeContext value={chrome}>
            <SiteHeader />
            <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
              {children}
            </main>
            <SiteFooter />
          </SiteChromeContext>
        )}
        {publicPage ? (
          // The public pages run without React in the browser: their one small script is all they load.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: our own script, bundled at build time
          <script type="module" nonce={nonce} dangerouslySetInnerHTML={{ __html: inlined?.publicPageScript ?? "" }} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const company = useRouteLoaderData<typeof loader>("root")?.chrome.company;
  const screen = errorScreenText(
    error,
    `Something went wrong on our side. Please try again${company ? `, or call us at ${company.phone}` : ""}.`,
  );
  return (
    <section className="mx-auto max-w-3xl px-4 py-24 text-center sm:px-6">
      <title>{company ? `${screen.title} | ${company.name}` : screen.title}</title>
      <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase">{screen.eyebrow}</p>
      <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900">{screen.heading}</h1>
      <p className="mt-4 text-lg text-slate-600">{screen.text}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link reloadDocument to="/" className="button-primary">
          Go to the home page
        </Link>
        <Link reloadDocument to="/learnmore#form" className="button-secondary">
          Contact us
        </Link>
      </div>
    </section>
  );
}
