package dev.idgen.index.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class IndexChartTest {

    @Test
    void compactRoundsLongDecimalsToATenthAndLeavesShortOnesAlone() {
        assertEquals("<?xml version=\"1.0\"?><path d=\"M-3,-4 Q0,12.3 7\"/> rgb(130,130,130) x=\"58.1\"",
                IndexChart.compact("<?xml version=\"1.0\"?><path d=\"M-2.953125,-3.953125 Q-0.001,12.25001 7\"/>"
                        + " rgb(130,130,130) x=\"58.12109375\""));
    }
}
