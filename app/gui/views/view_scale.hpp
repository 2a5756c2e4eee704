// The views' scale rules: how high the water of a scenario is drawn and over which range it
// is coloured before the data take over (docs/views.md, "Colours" and "Vertical scale"). The
// height of the waves the scenario puts in (drops, rain, wakes, bodies' splashes, its
// reference's surface, the open sea) is the colour range and the wave the automatic vertical
// scale draws at a fixed share of the pool; the scale stays below the lowest freeboard of the
// bodies, so the drawn water does not swamp a body the model keeps afloat.
#pragma once

#include "app/gui/views/view_grid.hpp"
#include "core/scenario/scenario.hpp"

namespace wb::gui {

// The look for a scenario's own waves and bodies (those it starts with and those it throws in
// later).
ViewGrid::Look lookFor(const Scenario& scenario);

// A body thrown into the running scenario: its splash joins the colour range and it is drawn
// true to size from now on (the water's exaggeration stays below its freeboard and the
// scenario's bodies'). Returns whether `look` changed.
bool admitThrownBody(ViewGrid::Look& look, const Scenario& scenario, const BodySpec& thrown);

}  // namespace wb::gui
