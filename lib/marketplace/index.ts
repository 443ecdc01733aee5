/** The marketplace client of CONTRACT §6 and §12: catalog location, safe fetching, shared caching, revisions. */
export {
  entryProblem,
  loadCatalog,
  loadCatalogTemplate,
  MANIFEST_CONCURRENCY,
  MAX_CATALOG_ENTRIES,
  parseCatalog,
  withProblem,
  type CatalogDocument,
  type Catalog,
  type CatalogListing,
  type CatalogTemplate,
  type EntryProblem,
  type MarketplaceDeps,
  type MarketplaceSource,
  type UnresolvedTemplate,
} from "./catalog";
export { cacheKey, pruneMarketplaceCache, CACHE_RETENTION_DAYS, type FetchMode } from "./cache";
export { clientGone, type OperationOptions } from "./operation";
export { catalogLocation } from "./location";
export { templateRevision, type RevisionInput } from "./revision";
export { addressRefusal, systemResolveHost, type ResolveHost } from "./address";
export { MAX_REDIRECTS, safeFetch, type FetchPolicy } from "./safe-fetch";
