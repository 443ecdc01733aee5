// Apart from the problem-type registry so the console can read a problem's cause (and know a
// problem answer) without shipping every cause's description to the browser.
/** Problem `type` URIs are this prefix and the cause's name (`urn:bank-templates:problem:local-edits`). */
export const PROBLEM_TYPE_PREFIX = "urn:bank-templates:problem:";

/** The media type of every problem answer (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";
