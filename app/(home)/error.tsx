"use client";
// Home fails as any console page does (inside the shell, with a retry); the landing page shares it.
export { default } from "../(console)/error";
