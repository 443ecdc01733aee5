import { redirect } from "next/navigation";

// /admin has no page of its own: its first section.
export default function AdminIndex() {
  redirect("/admin/users");
}
