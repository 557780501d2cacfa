import type { Editor } from '@tiptap/core';
import type { Node as PMNode, ResolvedPos } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';

/**
 * Table editing on the body schema's plain tables (rows of cells, no spans): insert,
 * add or remove a row or column, move between cells with Tab. Each command rebuilds the
 * one table node in a single transaction.
 */

interface CellInfo {
  table: PMNode;
  tablePos: number;
  row: number;
  col: number;
}

/** The table cell holding `$pos`, with its row and column, or null outside tables. */
export function tableCellAt($pos: ResolvedPos): CellInfo | null {
  for (let depth = $pos.depth; depth > 0; depth--) {
    const node = $pos.node(depth);
    if (node.type.name === 'tableCell' || node.type.name === 'tableHeader') {
      const rowDepth = depth - 1;
      const tableDepth = depth - 2;
      if (tableDepth < 0 || $pos.node(tableDepth).type.name !== 'table') return null;
      return { table: $pos.node(tableDepth), tablePos: $pos.before(tableDepth), row: $pos.index(tableDepth), col: $pos.index(rowDepth) };
    }
  }
  return null;
}

function cellPositions(table: PMNode, tablePos: number): number[][] {
  const rows: number[][] = [];
  table.forEach((row, rowOffset) => {
    const cells: number[] = [];
    row.forEach((_cell, cellOffset) => cells.push(tablePos + 1 + rowOffset + 1 + cellOffset));
    rows.push(cells);
  });
  return rows;
}

function focusCell(editor: Editor, tablePos: number, row: number, col: number) {
  const table = editor.state.doc.nodeAt(tablePos);
  if (!table) return;
  const cells = cellPositions(table, tablePos);
  const r = Math.max(0, Math.min(row, cells.length - 1));
  const target = cells[r]?.[Math.max(0, Math.min(col, (cells[r]?.length ?? 1) - 1))];
  if (target === undefined) return;
  // The caret goes to the end of the cell's text, ready to add to it.
  const cell = editor.state.doc.nodeAt(target);
  const end = target + (cell?.nodeSize ?? 2) - 1;
  const tr = editor.state.tr.setSelection(TextSelection.near(editor.state.doc.resolve(end), -1));
  editor.view.dispatch(tr.scrollIntoView());
  editor.view.focus();
}

/** Tab / Shift-Tab: next or previous cell; Tab in the last cell adds a row. */
export function moveToCell(editor: Editor, dir: 1 | -1): boolean {
  const info = tableCellAt(editor.state.selection.$from);
  if (!info) return false;
  const cells = cellPositions(info.table, info.tablePos);
  const flat = cells.flatMap((r, ri) => r.map((_, ci) => [ri, ci] as const));
  const at = flat.findIndex(([r, c]) => r === info.row && c === info.col);
  const next = flat[at + dir];
  if (!next) {
    if (dir === 1) return addRow(editor, true, 0);
    return true;
  }
  focusCell(editor, info.tablePos, next[0], next[1]);
  return true;
}

function emptyCell(editor: Editor, header: boolean): PMNode {
  const type = editor.schema.nodes[header ? 'tableHeader' : 'tableCell']!;
  return type.createAndFill() as PMNode;
}

function rebuild(editor: Editor, info: CellInfo, rows: PMNode[][], focus: { row: number; col: number }): boolean {
  const { schema } = editor;
  const table = schema.nodes.table!.create(
    info.table.attrs,
    rows.map((cells) => schema.nodes.tableRow!.create(null, cells)),
  );
  editor.view.dispatch(editor.state.tr.replaceWith(info.tablePos, info.tablePos + info.table.nodeSize, table));
  focusCell(editor, info.tablePos, focus.row, focus.col);
  return true;
}

function rowsOf(table: PMNode): PMNode[][] {
  const rows: PMNode[][] = [];
  table.forEach((row) => {
    const cells: PMNode[] = [];
    row.forEach((cell) => cells.push(cell));
    rows.push(cells);
  });
  return rows;
}

/** Inserts a table at the caret and puts the caret in its first cell, ready to type. */
export function insertTable(editor: Editor, rowCount = 3, colCount = 3): boolean {
  const { schema } = editor;
  const header = Array.from({ length: colCount }, () => emptyCell(editor, true));
  const body = Array.from({ length: rowCount - 1 }, () =>
    schema.nodes.tableRow!.create(
      null,
      Array.from({ length: colCount }, () => emptyCell(editor, false)),
    ),
  );
  const table = schema.nodes.table!.create(null, [schema.nodes.tableRow!.create(null, header), ...body]);
  // Tables do not nest: the new one is the table that follows the ones before the caret.
  const before = tablesBefore(editor.state.doc, editor.state.selection.from);
  if (!editor.chain().focus().insertContent(table.toJSON()).run()) return false;
  const tablePos = tablePositions(editor.state.doc)[before];
  if (tablePos === undefined) return true;
  focusCell(editor, tablePos, 0, 0);
  return true;
}

function tablePositions(doc: PMNode): number[] {
  const out: number[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'table') {
      out.push(pos);
      return false;
    }
    return !node.isTextblock;
  });
  return out;
}

function tablesBefore(doc: PMNode, pos: number): number {
  return tablePositions(doc).filter((p) => p < pos).length;
}

/** Adds a row above or below the caret's; the caret goes to column `focusCol` (default: the same column). */
export function addRow(editor: Editor, after: boolean, focusCol?: number): boolean {
  const info = tableCellAt(editor.state.selection.$from);
  if (!info) return false;
  const rows = rowsOf(info.table);
  const width = Math.max(...rows.map((r) => r.length));
  const at = info.row + (after ? 1 : 0);
  rows.splice(
    at,
    0,
    Array.from({ length: width }, () => emptyCell(editor, false)),
  );
  return rebuild(editor, info, rows, { row: at, col: focusCol ?? info.col });
}

export function addColumn(editor: Editor, after: boolean): boolean {
  const info = tableCellAt(editor.state.selection.$from);
  if (!info) return false;
  const rows = rowsOf(info.table);
  const at = info.col + (after ? 1 : 0);
  rows.forEach((cells, r) =>
    cells.splice(Math.min(at, cells.length), 0, emptyCell(editor, r === 0 && cells[0]?.type.name === 'tableHeader')),
  );
  return rebuild(editor, info, rows, { row: info.row, col: at });
}

export function deleteRow(editor: Editor): boolean {
  const info = tableCellAt(editor.state.selection.$from);
  if (!info) return false;
  const rows = rowsOf(info.table);
  if (rows.length <= 1) return deleteTable(editor);
  rows.splice(info.row, 1);
  return rebuild(editor, info, rows, { row: Math.min(info.row, rows.length - 1), col: info.col });
}

export function deleteColumn(editor: Editor): boolean {
  const info = tableCellAt(editor.state.selection.$from);
  if (!info) return false;
  const rows = rowsOf(info.table);
  if (Math.max(...rows.map((r) => r.length)) <= 1) return deleteTable(editor);
  for (const cells of rows) if (cells.length > info.col) cells.splice(info.col, 1);
  return rebuild(editor, info, rows, { row: info.row, col: Math.max(0, info.col - 1) });
}

export function deleteTable(editor: Editor): boolean {
  const info = tableCellAt(editor.state.selection.$from);
  if (!info) return false;
  editor.view.dispatch(editor.state.tr.delete(info.tablePos, info.tablePos + info.table.nodeSize));
  return true;
}
