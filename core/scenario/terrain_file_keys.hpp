// The scenario's "terrain": {"file": F, ...} section: the ground from an elevation file read
// with GDAL (core/terrain/elevation_file.hpp), its keys declared here (terrainFileKeys()): read,
// written and tabled in docs/scenario.md ("Terrain from elevation files") from the one table. The
// PNG heightmap's "terrain": {"png": F, ...} is a section of the scenario's key table.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/grid/field2d.hpp"
#include "core/scenario/scenario.hpp"
#include "core/scenario/scenario_keys.hpp"

namespace wb {

// A "terrain" section that names an elevation file rather than a PNG heightmap.
bool namesTerrainFile(const nlohmann::json& terrain);
// A scenario whose terrain gives the grid ("grid": "file"): its "grid" key may be left out.
bool terrainGivesGrid(const nlohmann::json& root);

// The section's keys (file, values, sea_level, grid, origin, coast) in reading order, each
// reading into and writing from s.terrainFile, s.seaLevel or s.coast.
const std::vector<ScenarioKey>& terrainFileKeys();

// Reads the section (context.where names it: "s.json: terrain"; its files resolve the file)
// into s.terrainFile, s.seaLevel and s.coast, and reads the file. With "grid": "file" the file
// sets s.grid; a grid the scenario gives too (gridGiven) must be the same. Throws InputError
// naming the key, or the file and what is wrong with it.
void readTerrainFileKeys(const nlohmann::json& terrain, const KeyContext& context, bool gridGiven,
                         Scenario& s);

// Reads spec's file into spec.data and puts it on the scenario: s.terrainFile = spec, and
// s.grid the file's own when spec.gridFromFile; checks that the file covers the grid with
// values (terrainFileHeight). The scenario reader and the workbench's import both use it.
void setTerrainFile(Scenario& s, TerrainFile spec);

// The section as written back (the file by its name as the scenario writes names).
nlohmann::json terrainFileJson(const Scenario& s);

// The ground's height on s.grid in the file's vertical datum (m): the file's values sampled at
// the cells' centres, depths turned to heights (-depth). Domain::applyTerrain takes it with
// s.seaLevel, the still water's level in that datum. Throws InputError naming the file.
Field2D terrainFileHeight(const Scenario& s);

}  // namespace wb
