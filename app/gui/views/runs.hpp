// Runs of consecutive indices that share a property: the wet stretches of a grid side, a row's
// land cells. The views build one quad per run instead of one per cell.
#pragma once

namespace wb::gui {

// Calls emit(first, end) for every run [first, end) of consecutive k in [0, n) with inRun(k).
template <class InRun, class Emit>
void forEachRun(int n, InRun inRun, Emit emit) {
  for (int k = 0; k < n;) {
    if (!inRun(k)) {
      ++k;
      continue;
    }
    int end = k + 1;
    while (end < n && inRun(end))
      ++end;
    emit(k, end);
    k = end;
  }
}

}  // namespace wb::gui
