import { Form, Link, useActionData } from "react-router";
import { Alert, AlertRegion } from "~/components/forms/alert";
import { choiceRowClass, touchLinkClass } from "~/components/forms/field-look";
import { FileField } from "~/components/forms/file-field";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextAreaField } from "~/components/forms/text-area-field";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { StaffSection } from "~/components/staff/staff-section";
import { WEEK_DAYS } from "~/content/site-content";
import type { SiteEditorAnswer } from "./site-editor.server";
import {
  type ContentPath,
  fieldNameOf,
  type ImageSlot,
  isImageSlot,
  itemLabelOf,
  type ListIntent,
  labelOf,
  PREVIEW_PAGES,
  SITE_SECTIONS,
  type SiteSection,
} from "./site-sections";

const REQUIRED_TEXT = "Fill this in.";

/** Words longer than a line: a text box of several lines. */
const LONG_WORDS = /(text|quote|description|paragraphs?|note|commercial|residential|NextSteps)$/;

/** Where the editor finds an image's small rendition: the build's files, or an uploaded photo's own route. */
const thumbnailOf = (name: string) =>
  name.startsWith("site-") ? `/admin/site/photos/${name}-320.jpg` : `/images/${name}-320.jpg`;

const smallButtonClass = "button-secondary min-h-11 px-4 py-2 text-sm";

function Outcome({ answer }: { answer: SiteEditorAnswer | undefined }) {
  return (
    <AlertRegion>
      {answer ? (
        <Alert tone={answer.status} className="mt-4">
          {answer.message}
        </Alert>
      ) : null}
    </AlertRegion>
  );
}

type NodeProps = {
  path: ContentPath;
  value: unknown;
  errors: Record<string, string>;
  label: string;
  /** A part of a section, under the section's own heading: its fields without a box and legend of their own. */
  bare?: boolean;
};

const errorsAt = (errors: Record<string, string>, path: ContentPath) => {
  const message = errors[fieldNameOf(path)];
  return message ? [message] : undefined;
};

/** An image slot: the photo it shows now, a new one from the phone's photos or camera, and its description. */
function ImageSlotFields({ path, value, errors, label }: NodeProps & { value: ImageSlot }) {
  const name = fieldNameOf(path);
  return (
    <fieldset className="rounded-lg border border-slate-300 p-3">
      <legend className="px-1 font-semibold text-slate-900">{label}</legend>
      <input type="hidden" name={`${name}.name`} value={value.name} />
      <img
        src={thumbnailOf(value.name)}
        alt={`Now: ${value.alt || "a photo without a description yet"}`}
        width={320}
        height={Math.round((320 * value.height) / value.width)}
        className="mt-1 h-auto w-full max-w-xs rounded border border-slate-200"
      />
      <FileField
        name={`${name}.upload`}
        label="Choose a new photo"
        hint={`From the phone's photos or camera. It is cut to ${value.width} by ${value.height} pixels around its middle.`}
        accept="image/jpeg,image/png,image/webp,image/heic,image/heif"
        errors={errorsAt(errors, [...path, "upload"])}
      />
      <TextField
        name={`${name}.alt`}
        label="What the photo shows (for people who cannot see it)"
        defaultValue={value.alt}
        requiredText={REQUIRED_TEXT}
        errors={errorsAt(errors, [...path, "alt"]) ?? errorsAt(errors, [...path, "name"])}
      />
    </fieldset>
  );
}

/** The days of an opening time: a choice of several. */
function DaysField({ path, value, errors, label }: NodeProps) {
  const chosen = new Set(Array.isArray(value) ? value : []);
  const message = errors[fieldNameOf(path)];
  return (
    <fieldset>
      <legend className="font-semibold text-slate-900">{label}</legend>
      <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-4">
        {WEEK_DAYS.map((day) => (
          <label key={day} className={choiceRowClass}>
            <input type="checkbox" name={fieldNameOf(path)} value={day} defaultChecked={chosen.has(day)} />
            {day}
          </label>
        ))}
      </div>
      {message ? <p className="text-red-800">{message}</p> : null}
    </fieldset>
  );
}

/** A list change for one item, its words short on screen and naming the item for a screen reader. */
function ListButton({
  change,
  path,
  words,
  itemLabel,
}: {
  change: ListIntent;
  path: ContentPath;
  words: string;
  itemLabel: string;
}) {
  return (
    <button
      type="submit"
      name="intent"
      value={`${change}:${fieldNameOf(path)}`}
      formNoValidate
      className={smallButtonClass}
    >
      {words}
      <span className="sr-only"> {itemLabel}</span>
    </button>
  );
}

/** A list: its items, each with Move up, Move down and Remove, then Add; the schema keeps its counts. */
function ListFields({ path, value, errors, label }: NodeProps & { value: unknown[] }) {
  const listKey = String(path.at(-1));
  const name = fieldNameOf(path);
  const message = errors[name];
  return (
    <fieldset className="rounded-lg border border-slate-300 p-3">
      <legend className="px-1 font-bold text-brand-900">{label}</legend>
      {message ? (
        <p id={`${name}-error`} className="font-semibold text-red-800">
          {message}
        </p>
      ) : null}
      <ol className="space-y-4">
        {value.map((item, index) => {
          const itemLabel = itemLabelOf(listKey, index);
          const itemPath = [...path, index];
          return (
            // Items have no id of their own in every list: their place is what the form knows them by.
            // biome-ignore lint/suspicious/noArrayIndexKey: the form posts items by their place in the list
            <li key={index} className="space-y-2">
              <ContentNode path={itemPath} value={item} errors={errors} label={itemLabel} />
              <div className="flex flex-wrap gap-2">
                {index > 0 ? <ListButton change="up" path={itemPath} words="Move up" itemLabel={itemLabel} /> : null}
                {index < value.length - 1 ? (
                  <ListButton change="down" path={itemPath} words="Move down" itemLabel={itemLabel} />
                ) : null}
                <ListButton change="remove" path={itemPath} words="Remove" itemLabel={itemLabel} />
              </div>
            </li>
          );
        })}
      </ol>
      <button type="submit" name="intent" value={`add:${name}`} formNoValidate className={`${smallButtonClass} mt-3`}>
        Add {itemLabelOf(listKey, value.length).replace(/ \d+$/, "").toLowerCase()}
      </button>
    </fieldset>
  );
}

/** One value of the content, in the field its kind needs. */
function ContentNode(props: NodeProps) {
  const { path, value, errors, label, bare } = props;
  const name = fieldNameOf(path);
  const key = String(path.at(-1));
  if (path.at(-1) === "days") return <DaysField {...props} />;
  if (Array.isArray(value)) return <ListFields {...props} value={value} />;
  if (isImageSlot(value)) return <ImageSlotFields {...props} value={value} />;
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value).map(([childKey, child]) =>
      childKey === "id" ? (
        <input key={childKey} type="hidden" name={fieldNameOf([...path, childKey])} value={String(child)} />
      ) : (
        <ContentNode
          key={childKey}
          path={[...path, childKey]}
          value={child}
          errors={errors}
          label={labelOf(childKey)}
        />
      ),
    );
    if (bare) return <div className="space-y-4">{fields}</div>;
    return (
      <fieldset className="space-y-3">
        <legend className="font-bold text-brand-900">{label}</legend>
        {fields}
      </fieldset>
    );
  }
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : "";
  if (
    typeof value === "string" &&
    (LONG_WORDS.test(key) || (typeof path.at(-2) === "string" && path.at(-2) === "paragraphs"))
  ) {
    return (
      <TextAreaField
        name={name}
        label={label}
        defaultValue={text}
        rows={4}
        requiredText={REQUIRED_TEXT}
        errors={errorsAt(errors, path)}
      />
    );
  }
  return (
    <TextField
      name={name}
      label={label}
      kind={typeof value === "number" ? "number" : key.endsWith("phone") || key.endsWith("Phone") ? "tel" : "text"}
      defaultValue={text}
      requiredText={REQUIRED_TEXT}
      errors={errorsAt(errors, path)}
    />
  );
}

const PART_TITLES: Record<string, string> = {
  pages: "Title and description for search engines",
  contactSection: "Contact section",
  company: "Company facts",
  estimate: "The estimate form's texts",
  menu: "Menu labels",
};

/** The heading of a part of a section: the page's own words and photos, or what the part is. */
const partLabelOf = (part: ContentPath) => PART_TITLES[String(part[0])] ?? "Words and photos";

/** One screen of the editor: every text, list and photo of its part of the site, then Save draft. */
export function SiteSectionScreen({
  section,
  values,
  baseVersionId,
  draftSavedAt,
}: {
  section: SiteSection;
  values: unknown[];
  baseVersionId: number | null;
  draftSavedAt: string | null;
}) {
  const answer = useActionData<SiteEditorAnswer>();
  const shown = answer?.values ?? values;
  const errors = answer?.errors ?? {};
  // Every button of the form sends it: Save draft, and each list's.
  const saving = usePending();
  return (
    <>
      <p className="mt-2 text-slate-700">
        {draftSavedAt ? `Draft last saved ${draftSavedAt}.` : "No draft yet: this is the published site."}{" "}
        <Link to="/admin/site" className={touchLinkClass}>
          Back to all parts of the site
        </Link>
      </p>
      {section.pagePath ? (
        <p>
          <Link to={`/admin/site/preview?page=${encodeURIComponent(section.pagePath)}`} className={touchLinkClass}>
            Preview this page
          </Link>
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="mt-6 space-y-6">
        <input type="hidden" name="baseVersionId" value={baseVersionId ?? ""} />
        {/* The form's first button is what Enter in a field presses: Save draft, not a list's Move or Remove. */}
        <button type="submit" hidden>
          Save draft
        </button>
        <Outcome answer={answer} />
        {answer?.conflict ? (
          <button
            type="submit"
            name="intent"
            value={`save-over:${answer.conflict.publishedVersionId}`}
            className="button-secondary"
          >
            Save my changes over the published site
          </button>
        ) : null}
        {section.parts.map((part, index) => (
          <StaffSection
            key={fieldNameOf(part)}
            headingId={`part-${fieldNameOf(part).replace(/\./g, "-")}`}
            title={partLabelOf(part)}
            className="space-y-4"
          >
            <ContentNode path={part} value={shown[index]} errors={errors} label={partLabelOf(part)} bare />
          </StaffSection>
        ))}
        <div className="sticky bottom-0 border-t border-slate-200 bg-white py-3">
          <SubmitButton busy={saving} busyLabel="Saving...">
            Save draft
          </SubmitButton>
        </div>
      </Form>
    </>
  );
}

/** The editor's start: a screen per part of the site, the draft's state, Publish and the history. */
export function SiteEditorScreen({
  baseVersionId,
  draftSavedAt,
  draftSavedBy,
}: {
  baseVersionId: number | null;
  draftSavedAt: string | null;
  draftSavedBy: string | null;
}) {
  const answer = useActionData<SiteEditorAnswer>();
  const publishing = usePending("publish");
  return (
    <>
      <StaffSection headingId="site-parts" title="Parts of the site" className="mt-6">
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {SITE_SECTIONS.map((section) => (
            <li key={section.id}>
              <Link to={`/admin/site/${section.id}`} className={touchLinkClass}>
                {section.title}
              </Link>
            </li>
          ))}
        </ul>
      </StaffSection>
      <StaffSection headingId="site-publish" title="Publish" className="mt-8">
        <p className="mt-2 text-slate-700">
          {draftSavedAt
            ? `${draftSavedBy ?? "An admin"} saved a draft ${draftSavedAt}. Visitors see it once it is published.`
            : "No draft: the site is as published."}
        </p>
        <p>
          <Link to="/admin/site/preview" className={touchLinkClass}>
            Preview the pages before publishing
          </Link>
        </p>
        <Form method="post" className="mt-3">
          <input type="hidden" name="baseVersionId" value={baseVersionId ?? ""} />
          <input type="hidden" name="intent" value="publish" />
          <SubmitButton busy={publishing} busyLabel="Publishing...">
            Publish
          </SubmitButton>
          <Outcome answer={answer} />
        </Form>
        <p className="mt-4">
          <Link to="/admin/site/history" className={touchLinkClass}>
            History: every version published
          </Link>
        </p>
      </StaffSection>
    </>
  );
}

type VersionRow = {
  versionId: number;
  publishedAt: string;
  publishedBy: string;
  republishedFromId: number | null;
  current: boolean;
};

/** Every version, with who and when, View and "Publish this version again". */
export function SiteHistoryScreen({ versions }: { versions: VersionRow[] }) {
  const answer = useActionData<SiteEditorAnswer>();
  return (
    <>
      <Outcome answer={answer} />
      {versions.length === 0 ? (
        <p className="mt-4 text-slate-700">Nothing was published yet: the site is as it was built.</p>
      ) : (
        <ol className="mt-4 space-y-3">
          {versions.map((version) => (
            <li key={version.versionId} className="rounded-xl border border-slate-300 p-4">
              <p className="font-semibold text-slate-900">
                Version {version.versionId}
                {version.current ? " (what visitors see now)" : ""}
              </p>
              <p className="text-slate-700">
                Published by {version.publishedBy}, {version.publishedAt}
                {version.republishedFromId ? `, again from version ${version.republishedFromId}` : ""}.
              </p>
              <div className="mt-2 flex flex-wrap items-center gap-3">
                <Link to={`/admin/site/preview?version=${version.versionId}`} className={touchLinkClass}>
                  View version {version.versionId}
                </Link>
                {version.current ? null : (
                  <Form method="post">
                    <input type="hidden" name="versionId" value={version.versionId} />
                    <button type="submit" name="intent" value="republish" className="button-secondary">
                      Publish version {version.versionId} again
                    </button>
                  </Form>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** A link of the preview's, marked as the one shown. */
function PreviewLink({ to, current, children }: { to: string; current: boolean; children: string }) {
  return (
    <Link
      to={to}
      aria-current={current ? "page" : undefined}
      className={`${touchLinkClass} ${current ? "font-bold no-underline" : ""}`}
    >
      {children}
    </Link>
  );
}

/**
 * The preview: a public page as visitors will get it, in a frame at a phone's width (412 px) or the full width,
 * with the other pages a tap away; for an earlier version, "Publish this version again" beside it.
 */
export function SitePreviewScreen({
  page,
  versionId,
  phoneWidth,
  html,
}: {
  page: { path: string; title: string };
  versionId: number | null;
  phoneWidth: boolean;
  html: string;
}) {
  const query = (changes: { page?: string; width?: "full" | "phone" }) => {
    const params = new URLSearchParams({ page: changes.page ?? page.path });
    if (versionId !== null) params.set("version", String(versionId));
    if ((changes.width ?? (phoneWidth ? "phone" : "full")) === "full") params.set("width", "full");
    return `/admin/site/preview?${params}`;
  };
  return (
    <>
      <p className="mt-2 text-slate-700">
        {versionId === null
          ? "What visitors will see once the draft is published. Scripts do not run here: a slideshow shows its first photo."
          : `Version ${versionId}, as visitors saw it. Scripts do not run here: a slideshow shows its first photo.`}
      </p>
      <nav aria-label="Pages to preview" className="mt-3 flex flex-wrap gap-x-4">
        {PREVIEW_PAGES.map((candidate) => (
          <PreviewLink key={candidate.path} to={query({ page: candidate.path })} current={candidate.path === page.path}>
            {candidate.title}
          </PreviewLink>
        ))}
      </nav>
      <nav aria-label="Width" className="mt-2 flex flex-wrap gap-x-4">
        <PreviewLink to={query({ width: "phone" })} current={phoneWidth}>
          Phone width
        </PreviewLink>
        <PreviewLink to={query({ width: "full" })} current={!phoneWidth}>
          Full width
        </PreviewLink>
      </nav>
      {versionId === null ? (
        <p>
          <Link to="/admin/site" className={touchLinkClass}>
            Back to Publish
          </Link>
        </p>
      ) : (
        <Form method="post" action="/admin/site/history" className="mt-3">
          <input type="hidden" name="versionId" value={versionId} />
          <button type="submit" name="intent" value="republish" className="button-secondary">
            Publish version {versionId} again
          </button>
        </Form>
      )}
      <iframe
        title={`Preview of the ${page.title.toLowerCase()}`}
        srcDoc={html}
        // Same origin, so its photos load with the admin's session; no scripts.
        sandbox="allow-same-origin"
        className={`mt-4 h-[75vh] rounded-lg border border-slate-300 ${phoneWidth ? "w-[412px] max-w-full" : "w-full"}`}
      />
    </>
  );
}
