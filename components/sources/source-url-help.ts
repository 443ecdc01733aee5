/** What a source's URL may be (lib/services/marketplace/location.ts): the add and edit dialogs' hint, and the home page's. */
export const SOURCE_URL_HELP =
  "A Git repository (GitHub, GitLab, also a /tree/<branch>/<folder> URL), a folder that holds templates.json, or the URL of a templates.json itself.";
