import { route } from "@/lib/contracts/endpoint";

// Where the audit endpoints are (./endpoints.ts is to spread these).

export const auditRoutes = {
  list: route("GET", "/ext/svc/admin/audit"),
  export: route("GET", "/ext/svc/admin/audit/export"),
};
