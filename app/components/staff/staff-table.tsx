import type { ReactNode } from "react";

export type StaffTableColumn<Row> = {
  header: string;
  /** A header for screen readers only, for a column whose cells say what they are (a button). */
  headerHidden?: boolean;
  cell: (row: Row) => ReactNode;
  /** The column that names its row: its cells are row headers, as screen readers announce them. */
  namesRow?: boolean;
  /** Classes of the column's header and cells; a function styles each row's cell by its row. */
  className?: string | ((row: Row) => string);
};

/**
 * Every staff list: a header row and a row per item. Below 640 px each row is a card of stacked cells, each after
 * its column's header (the `staff-table` rules in app.css), so no column hides off to the right of a phone. The
 * caption is for screen readers, where no heading names the table.
 */
export function StaffTable<Row>(props: {
  caption?: string;
  columns: readonly StaffTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
}) {
  const classOf = ({ className = "" }: StaffTableColumn<Row>, row?: Row) =>
    `px-3 py-2 align-top ${typeof className === "string" ? className : row ? className(row) : ""}`;
  return (
    <div className="mt-4">
      <table className="staff-table w-full border-collapse text-left text-sm">
        {props.caption ? <caption className="sr-only">{props.caption}</caption> : null}
        <thead>
          <tr className="border-b border-slate-300 text-slate-700">
            {props.columns.map((column) => (
              <th key={column.header} scope="col" className={classOf(column)}>
                {column.headerHidden ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} className="border-b border-slate-200">
              {props.columns.map((column) => {
                const Cell = column.namesRow ? "th" : "td";
                return (
                  <Cell
                    key={column.header}
                    scope={column.namesRow ? "row" : undefined}
                    data-label={column.namesRow || column.headerHidden ? undefined : column.header}
                    className={classOf(column, row)}
                  >
                    {column.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
