/** The marketplace client of CONTRACT §6 and §12: catalog location, safe fetching, shared caching, revisions. */

export { addressRefusal } from "@/lib/platform/address";
export { clientGone, type OperationOptions } from "@/lib/platform/operation";
export { cacheKey, dropCachedCatalog, pruneMarketplaceCache } from "./cache";
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
export { templateRevision } from "./revision";
