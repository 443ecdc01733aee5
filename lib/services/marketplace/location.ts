import { badGateway } from "@/lib/contracts/errors";
import { displayUrl } from "@/lib/platform/outbound";

const CATALOG_FILE = "templates.json";

// Messages name URLs through the outbound clients' one redactor.
export { displayUrl };

function parseSourceUrl(sourceUrl: string): URL {
  let url: URL;
  try {
    url = new URL(sourceUrl);
  } catch {
    throw badGateway("The template source URL is not an absolute URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw badGateway(`The template source URL ${displayUrl(url)} is not an http or https URL.`);
  }
  url.hash = "";
  return url;
}

const segmentsOf = (path: string) => path.split("/").filter((s) => s.length > 0);

/**
 * `github.com/{owner}/{repo}[.git][/tree/{ref}[/{dir}]]` → the raw file on raw.githubusercontent.com.
 * `/blob/{ref}/{file}.json` (and `/raw/…`) name one catalog file; the blob page is HTML, so it maps to the raw file.
 * Null when the path has no owner and repository.
 */
function githubLocation(url: URL): string | null {
  const [owner, rawRepo, kind, ref, ...rest] = segmentsOf(url.pathname);
  if (!owner || !rawRepo) return null;
  const repo = rawRepo.replace(/\.git$/, "");
  const base = `https://raw.githubusercontent.com/${owner}/${repo}`;
  const file = rest[rest.length - 1];
  if ((kind === "blob" || kind === "raw") && ref && file?.toLowerCase().endsWith(".json")) {
    return `${base}/${ref}/${rest.join("/")}`;
  }
  if (kind === "tree" && ref) return `${base}/${[ref, ...rest, CATALOG_FILE].join("/")}`;
  return `${base}/HEAD/${CATALOG_FILE}`;
}

/**
 * `{url}/-/raw/HEAD/templates.json`; a `/-/tree/{ref}/{dir}` URL picks branch and folder as on GitHub.
 * A `.json` URL is the catalog itself, its `/-/blob/` page mapped to the raw file.
 */
function gitlabLocation(url: URL): string {
  const path = url.pathname.replace(/\/+$/, "");
  const out = new URL(url);
  if (path.toLowerCase().endsWith(".json")) {
    out.pathname = path.replace("/-/blob/", "/-/raw/");
    return out.toString();
  }
  out.search = "";
  const tree = path.match(/^(.*?)\/-\/tree\/([^/]+)((?:\/[^/]+)*)$/);
  if (tree) {
    const [, project, ref, dir] = tree;
    out.pathname = `${project}/-/raw/${ref}${dir}/${CATALOG_FILE}`;
  } else {
    out.pathname = `${path.replace(/\.git$/, "")}/-/raw/HEAD/${CATALOG_FILE}`;
  }
  return out.toString();
}

/** `{url}/templates.json`, keeping any query string. */
function plainLocation(url: URL): string {
  const out = new URL(url);
  out.pathname = `${url.pathname.replace(/\/+$/, "")}/${CATALOG_FILE}`;
  return out.toString();
}

/** Where a source's catalog lives (CONTRACT §6). Throws 502 for a URL that is not absolute http(s). */
export function catalogLocation(sourceUrl: string): string {
  const url = parseSourceUrl(sourceUrl);
  const host = url.hostname.toLowerCase();
  if (host === "github.com" || host === "www.github.com") {
    const github = githubLocation(url);
    if (github) return github;
  }
  if (host.includes("gitlab")) return gitlabLocation(url);
  if (url.pathname.toLowerCase().endsWith(".json")) return url.toString();
  return plainLocation(url);
}
