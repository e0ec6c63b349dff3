package dev.idgen.index.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table: columns padded to their widest cell, numbers right-aligned, no colours, so it
 * reads the same in a terminal, a pipe and a file.
 */
public final class TextTable {

    private final List<String> header;
    private final boolean[] rightAligned;
    private final List<List<String>> rows = new ArrayList<>();

    /**
     * @param header column titles; a title starting with {@code '>'} marks a right-aligned column
     *     (the mark is not printed)
     */
    public TextTable(String... header) {
        this.header = new ArrayList<>();
        this.rightAligned = new boolean[header.length];
        for (int i = 0; i < header.length; i++) {
            rightAligned[i] = header[i].startsWith(">");
            this.header.add(rightAligned[i] ? header[i].substring(1) : header[i]);
        }
    }

    /**
     * @param cells one cell per column
     * @return this table
     * @throws IllegalArgumentException if the count differs from the header's
     */
    public TextTable row(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + header.size() + " columns");
        }
        rows.add(List.of(cells));
        return this;
    }

    /**
     * @param indent spaces before each line
     * @return the table, header first, each line ending in a newline
     */
    public String render(int indent) {
        int[] width = new int[header.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> r : all) {
            for (int c = 0; c < width.length; c++) {
                width[c] = Math.max(width[c], r.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> r : all) {
            StringBuilder line = new StringBuilder(" ".repeat(indent));
            for (int c = 0; c < width.length; c++) {
                String cell = r.get(c);
                String pad = " ".repeat(width[c] - cell.length());
                line.append(rightAligned[c] ? pad + cell : cell + pad);
                if (c < width.length - 1) {
                    line.append("  ");
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
