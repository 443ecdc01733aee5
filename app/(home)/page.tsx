import type { Metadata } from "next";
import { HomePage } from "@/components/home/HomePage";
import { LandingPage } from "@/components/home/LandingPage";
import { currentConsoleUser } from "@/lib/auth/console-user";

export async function generateMetadata(): Promise<Metadata> {
  // Signed out: the site's own title (the root layout's default).
  return (await currentConsoleUser()) ? { title: "Home" } : {};
}

// Signed in: what needs attention. Signed out: what the product is, and the way in.
export default async function Page() {
  return (await currentConsoleUser()) ? <HomePage /> : <LandingPage />;
}
