import { formatAddress, officeMapAddresses } from "~/content/company";
import { useSiteChrome } from "./site-chrome";

/**
 * The office on a map (spec: lazily loaded, 450 px high, 90% wide), with the address as a link to a maps site
 * under it: when the embed cannot load (blocked, offline, a privacy extension), the visitor still finds us.
 */
export function OfficeMap() {
  const { company } = useSiteChrome();
  const address = formatAddress(company.street);
  const map = officeMapAddresses(company.street);
  return (
    <figure className="mt-10">
      <iframe
        title={company.mapTitle}
        src={map.src}
        loading="lazy"
        referrerPolicy="no-referrer-when-downgrade"
        className="mx-auto block h-[450px] w-[90%] rounded-xl border-0 bg-slate-100"
      />
      <figcaption className="mt-3 text-center text-lg">
        <a href={map.link} rel="noopener" className="underline underline-offset-4">
          Open {address} in Google Maps
        </a>
      </figcaption>
    </figure>
  );
}
