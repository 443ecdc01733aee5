// Apart from the problem-type registry so the console can read a problem's cause without
// shipping every cause's description to the browser.
/** Problem `type` URIs are this prefix and the cause's name (`urn:bank-templates:problem:local-edits`). */
export const PROBLEM_TYPE_PREFIX = "urn:bank-templates:problem:";
