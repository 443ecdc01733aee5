"use client";
// CodeMirror 6 and everything it needs, in a module of its own: JsonEditor loads it with
// import() once the page runs, so no page carries it in its first-load JavaScript.
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { bracketMatching, foldGutter, foldKeymap, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { Annotation, Compartment, EditorState, type Extension } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  placeholder,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { useComputedColorScheme } from "@mantine/core";
import { useEffect, useImperativeHandle, useRef } from "react";
import type { JsonEditorViewProps } from "./JsonEditor";

/** Marks a transaction that brings in the parent's value, so it is not reported back as an edit. */
const fromProps = Annotation.define<boolean>();

// Token colours from Mantine's palette: shade 9 on the light background, shade 3 on the dark
// one, both readable at WCAG AA against the editor's background (the body colour).
const tokenColours = (shade: 3 | 9) =>
  HighlightStyle.define([
    { tag: tags.propertyName, color: `var(--mantine-color-blue-${shade})` },
    { tag: tags.string, color: `var(--mantine-color-green-${shade})` },
    { tag: tags.number, color: `var(--mantine-color-orange-${shade})` },
    { tag: [tags.bool, tags.null], color: `var(--mantine-color-violet-${shade})`, fontWeight: "600" },
    { tag: tags.invalid, color: `var(--mantine-color-red-${shade})` },
  ]);
const LIGHT_TOKENS = tokenColours(9);
const DARK_TOKENS = tokenColours(3);

/** Mantine's border, around the editor and its gutters, fold markers and tooltips. */
const BORDER = "1px solid var(--mantine-color-default-border)";

/** The editor in the console's look; colours are Mantine's variables, which follow the scheme. */
const consoleTheme = (fontSize: "xs" | "sm", minHeight: string, maxHeight: string) =>
  EditorView.theme({
    "&": {
      fontSize: `var(--mantine-font-size-${fontSize})`,
      color: "var(--mantine-color-text)",
      backgroundColor: "var(--mantine-color-body)",
      border: BORDER,
      borderRadius: "var(--mantine-radius-default)",
      maxHeight,
    },
    "&.cm-focused": {
      // Mantine's focus ring, so keyboard users see where they are.
      outline: "2px solid var(--mantine-primary-color-filled)",
      outlineOffset: "2px",
    },
    "&[data-invalid]": { borderColor: "var(--mantine-color-error)" },
    ".cm-scroller": { overflow: "auto", fontFamily: "var(--mantine-font-family-monospace)", lineHeight: "1.5" },
    ".cm-content, .cm-gutter": { minHeight },
    ".cm-content": { caretColor: "var(--mantine-color-text)" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--mantine-color-text)" },
    ".cm-gutters": {
      backgroundColor: "var(--mantine-color-default-hover)",
      color: "var(--mantine-color-dimmed)",
      borderRight: BORDER,
      borderRadius: "var(--mantine-radius-default) 0 0 var(--mantine-radius-default)",
    },
    ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--mantine-color-default-hover) 60%, transparent)" },
    ".cm-activeLineGutter": { backgroundColor: "var(--mantine-color-default-border)", color: "var(--mantine-color-text)" },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": {
      backgroundColor: "var(--mantine-primary-color-light)",
    },
    ".cm-matchingBracket": {
      backgroundColor: "var(--mantine-primary-color-light)",
      outline: "1px solid var(--mantine-primary-color-filled)",
    },
    ".cm-nonmatchingBracket": { color: "var(--mantine-color-error)" },
    ".cm-foldPlaceholder": {
      backgroundColor: "var(--mantine-color-default-hover)",
      border: BORDER,
      color: "var(--mantine-color-text)",
      padding: "0 4px",
      margin: "0 2px",
    },
    ".cm-foldGutter .cm-gutterElement": { cursor: "pointer", padding: "0 4px" },
    ".cm-placeholder": { color: "var(--mantine-color-placeholder)" },
    ".cm-tooltip": {
      backgroundColor: "var(--mantine-color-body)",
      color: "var(--mantine-color-text)",
      border: BORDER,
      borderRadius: "var(--mantine-radius-sm)",
      boxShadow: "var(--mantine-shadow-sm)",
    },
    ".cm-diagnosticText": { fontFamily: "var(--mantine-font-family)" },
    ".cm-panels": { backgroundColor: "var(--mantine-color-body)", color: "var(--mantine-color-text)" },
  });

/** What follows the colour scheme: CodeMirror's own dark styles (tooltips, panels) and the token colours. */
const schemeExtensions = (dark: boolean): Extension => [
  EditorView.darkTheme.of(dark),
  syntaxHighlighting(dark ? DARK_TOKENS : LIGHT_TOKENS),
];

/** The attributes that name and describe the editable area for assistive technology (and for tests). */
const contentAttributes = (props: JsonEditorViewProps): Extension => [
  EditorView.contentAttributes.of({
    "aria-label": props.label,
    ...(props.describedBy ? { "aria-describedby": props.describedBy } : {}),
    "aria-invalid": props.invalid ? "true" : "false",
    // Explicitly in the tab order: axe (scrollable-region-focusable) does not count a
    // contenteditable as what makes the scroller around it reachable by keyboard.
    tabindex: "0",
    ...(props.testId ? { "data-testid": props.testId } : {}),
  }),
  EditorView.editorAttributes.of(props.invalid ? { "data-invalid": "true" } : {}),
];

/** The one change that turns `before` into `after`: the span between their common start and end. */
function differingSpan(before: string, after: string) {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end])
    end++;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}

/**
 * A JSON text editor: highlighting, line numbers, folding (gutter or Ctrl-Shift-[ / ]),
 * bracket matching, undo, and the caller's diagnostics as underlines and gutter markers with
 * their message on hover (or in the panel, Ctrl-Shift-M). Tab is left to move the focus on,
 * so the editor is no keyboard trap. Controlled: `value` in, `onChange` out.
 */
export function CodeMirrorJson(props: JsonEditorViewProps) {
  const { value, onChange, diagnostics, handleRef, autoFocus } = props;
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latestOnChange = useRef(onChange);
  latestOnChange.current = onChange;
  const compartments = useRef({ scheme: new Compartment(), attributes: new Compartment() }).current;
  // Never rendered on the server (JsonEditor mounts it after loading it), so the scheme can be read at once.
  const dark = useComputedColorScheme("light", { getInitialValueInEffect: false }) === "dark";

  // The view is made once; what changes later is dispatched to it by the effects below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: created on mount with the first props; later values arrive through the effects below.
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          foldGutter(),
          lintGutter(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          EditorView.lineWrapping,
          json(),
          keymap.of([...defaultKeymap, ...historyKeymap, ...foldKeymap, ...lintKeymap]),
          props.placeholder ? placeholder(props.placeholder) : [],
          consoleTheme(props.fontSize, props.minHeight, props.maxHeight),
          compartments.scheme.of(schemeExtensions(dark)),
          compartments.attributes.of(contentAttributes(props)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((tr) => tr.annotation(fromProps))) {
              latestOnChange.current(update.state.doc.toString());
            }
          }),
        ],
      }),
    });
    view.current = editor;
    if (autoFocus) editor.focus();
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // A new value from the parent (the policy form, Format, an upload, Discard): replace only the
  // span that differs, so the cursor, the scroll position and the folds of the rest stay put
  // (replacing the whole text moved the view and unfolded everything on every form edit).
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current === value) return;
    const change = differingSpan(current, value);
    editor.dispatch({ changes: change, annotations: fromProps.of(true) });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.scheme.reconfigure(schemeExtensions(dark)) });
  }, [dark, compartments]);

  const { label, describedBy, invalid, testId } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: exactly the props contentAttributes reads.
  useEffect(() => {
    view.current?.dispatch({ effects: compartments.attributes.reconfigure(contentAttributes(props)) });
  }, [label, describedBy, invalid, testId, compartments]);

  // Diagnostics are computed by the caller against `value`, which the effect above has just put in.
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const length = editor.state.doc.length;
    const clamped = (diagnostics ?? []).map((d) => {
      const from = Math.min(Math.max(0, d.from), length);
      return { ...d, from, to: Math.min(Math.max(from, d.to), length) };
    });
    editor.dispatch(setDiagnostics(editor.state, clamped));
  }, [diagnostics]);

  useImperativeHandle(
    handleRef,
    () => ({
      select(from: number, to: number) {
        const editor = view.current;
        if (!editor) return;
        const length = editor.state.doc.length;
        const anchor = Math.min(from, length);
        editor.focus();
        editor.dispatch({
          selection: { anchor, head: Math.min(to, length) },
          effects: EditorView.scrollIntoView(anchor, { y: "center" }),
        });
      },
      focus() {
        view.current?.focus();
      },
    }),
    [],
  );

  return <div ref={host} />;
}
