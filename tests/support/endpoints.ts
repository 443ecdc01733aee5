import { listEndpoints } from "@/lib/contracts/registry/endpoints";

/** Every endpoint of the contract with its path parameters filled in by sample values. */
export function sampleRequests() {
  return listEndpoints().map((endpoint) => ({
    endpoint,
    method: endpoint.method,
    path: endpoint.path.replace(/\{[^}]+\}/g, "sample-id"),
  }));
}
