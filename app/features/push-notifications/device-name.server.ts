/** What kind of device a browser runs on, from its user agent, as people call it. */
function deviceKind(userAgent: string): string {
  if (/iPhone/.test(userAgent)) return "iPhone";
  if (/iPad/.test(userAgent)) return "iPad";
  if (/Android/.test(userAgent)) return /Mobile/.test(userAgent) ? "Android phone" : "Android tablet";
  if (/Macintosh/.test(userAgent)) return "Mac";
  if (/Windows/.test(userAgent)) return "Windows computer";
  if (/CrOS/.test(userAgent)) return "Chromebook";
  if (/Linux/.test(userAgent)) return "Linux computer";
  return "device";
}

/** How a device is named in a submission's deliveries: "Dana's Android phone". */
export function deviceName(displayName: string, userAgent: string | null): string {
  const firstName = displayName.trim().split(/\s+/)[0] || displayName;
  return `${firstName}'s ${deviceKind(userAgent ?? "")}`;
}
