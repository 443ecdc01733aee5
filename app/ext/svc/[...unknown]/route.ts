// ANY /ext/svc/... – every path no other route file names: 404 problem
import { unknownPath } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = unknownPath();
