// The scenario's "terrain": {"file": F, ...} section: the ground from an elevation file read
// with GDAL (core/terrain/elevation_file.hpp), its keys read and written here (docs/scenario.md,
// "Terrain from elevation files"). The PNG heightmap's "terrain": {"png": F, ...} stays with
// the other keys in scenario.cpp.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/grid/field2d.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {

// A "terrain" section that names an elevation file rather than a PNG heightmap.
bool namesTerrainFile(const nlohmann::json& terrain);
// A scenario whose terrain gives the grid ("grid": "file"): its "grid" key may be left out.
bool terrainGivesGrid(const nlohmann::json& root);

// Reads the section (`where` names it: "s.json: terrain") with its file already resolved, into
// s.terrainFile, s.seaLevel and s.coast, and reads the file. With "grid": "file" the file sets
// s.grid; a grid the scenario gives too (gridGiven) must be the same. Throws InputError naming
// the key, or the file and what is wrong with it.
void readTerrainFileKeys(const nlohmann::json& terrain, const std::string& where,
                         const FileRef& file, bool gridGiven, Scenario& s);

// Reads spec's file into spec.data and puts it on the scenario: s.terrainFile = spec, and
// s.grid the file's own when spec.gridFromFile; checks that the file covers the grid with
// values (terrainFileHeight). The scenario reader and the workbench's import both use it.
void setTerrainFile(Scenario& s, TerrainFile spec);

// The section as written back; `file` is the file's name as the scenario writes names.
nlohmann::json terrainFileJson(const Scenario& s, const std::string& file);

// The ground's height on s.grid in the file's vertical datum (m): the file's values sampled at
// the cells' centres, depths turned to heights (-depth). Domain::applyTerrain takes it with
// s.seaLevel, the still water's level in that datum. Throws InputError naming the file.
Field2D terrainFileHeight(const Scenario& s);

}  // namespace wb
