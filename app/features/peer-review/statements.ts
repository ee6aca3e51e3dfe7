/** The fifteen statements a co-worker is rated on, in the order of the original questionnaire (docs/spec.md §3). */
export const PEER_REVIEW_STATEMENTS = [
  "Behaves consistently with the company's mission, vision and values.",
  "Is viewed as a person of integrity by co-workers.",
  "Has an attitude of helpfulness toward co-workers.",
  "Complies with company policies and procedures.",
  "Is professional and courteous when communicating with coworkers.",
  "Represents the company positively with customers.",
  "Is interested in developing new skills and growing as a professional.",
  "Follows through on tasks and responsibilities appropriately and on time.",
  "Respects the work and ideas of others.",
  "Is considerate of others' needs.",
  "Accepts responsibility for his or her own actions.",
  "Would make an effective supervisor.",
  "Is comfortable to approach for help or advice.",
  "Stays focused on helping internal and external customers.",
  "Is willing to listen to what others have to say.",
] as const;

/** The form's field for statement `index` (0-based): q1 ... q15. */
export const statementFieldName = (index: number) => `q${index + 1}` as const;
