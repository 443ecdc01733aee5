"use client";
import type { ConfirmModalProps } from "./ConfirmDialog";
import { lazyModal } from "./lazy";

/** Asks before something that cannot be undone (delete, revoke); its code loads when first asked. */
export const ConfirmModal = lazyModal<ConfirmModalProps>(() => import("./ConfirmDialog").then((m) => m.ConfirmDialog));
