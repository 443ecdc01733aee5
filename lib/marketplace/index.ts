/** The marketplace client of CONTRACT §6 and §12: catalog location, safe fetching, shared caching, revisions. */

export { addressRefusal } from "./address";
export { cacheKey, type FetchMode, pruneMarketplaceCache } from "./cache";
export {
  type CatalogListing,
  type CatalogTemplate,
  loadCatalog,
  loadCatalogTemplate,
  MANIFEST_CONCURRENCY,
  MAX_CATALOG_ENTRIES,
  type MarketplaceDeps,
  withProblem,
} from "./catalog";
export { catalogLocation } from "./location";
export { clientGone, type OperationOptions } from "./operation";
export { templateRevision } from "./revision";
