/** The marketplace client of CONTRACT §6: catalog location, safe fetching, caching, revisions. */
export {
  loadCatalog,
  loadCatalogTemplate,
  parseCatalog,
  type CatalogDocument,
  type Catalog,
  type CatalogTemplate,
  type MarketplaceDeps,
  type MarketplaceSource,
} from "./catalog";
export { cacheKey, type FetchMode } from "./cache";
export { catalogLocation } from "./location";
export { templateRevision, type RevisionInput } from "./revision";
export { addressRefusal, systemResolveHost, type ResolveHost } from "./address";
export { MAX_REDIRECTS, safeFetch, type FetchPolicy } from "./safe-fetch";
