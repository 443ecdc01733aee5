"use client";
import type { ModalProps } from "@mantine/core";
import { lazyModal } from "./lazy";

/** Mantine's Modal, whose code loads the first time it opens. */
export const LazyModal = lazyModal<ModalProps>(() => import("./MantineDialogs").then((m) => m.Modal));
