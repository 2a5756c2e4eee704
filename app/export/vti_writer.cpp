#include "app/export/vti_writer.hpp"

#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnsignedCharArray.h>
#include <vtkXMLImageDataWriter.h>

#include <cstdio>

#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"

namespace wb {
namespace fs = std::filesystem;

namespace {
vtkNew<vtkFloatArray> toArray(const Field2D& field, const char* name) {
  vtkNew<vtkFloatArray> array;
  array->SetName(name);
  array->SetNumberOfTuples(vtkIdType(field.size()));
  for (std::size_t k = 0; k < field.size(); ++k)
    array->SetValue(vtkIdType(k), field.data()[k]);
  return array;
}
}  // namespace

void writeVtiFrame(const fs::path& file, const Field2D& eta, const Domain& domain) {
  const Grid& grid = domain.grid();
  vtkNew<vtkImageData> image;
  image->SetDimensions(grid.nx, grid.ny, 1);
  image->SetSpacing(grid.dx, grid.dx, grid.dx);
  image->SetOrigin(0.5 * grid.dx, 0.5 * grid.dx, 0.0);
  image->GetPointData()->AddArray(toArray(eta, "eta"));
  image->GetPointData()->AddArray(toArray(domain.restDepth(), "rest_depth"));
  vtkNew<vtkUnsignedCharArray> wet;
  wet->SetName("wet");
  wet->SetNumberOfTuples(vtkIdType(domain.wetMask().size()));
  for (std::size_t k = 0; k < domain.wetMask().size(); ++k)
    wet->SetValue(vtkIdType(k), domain.wetMask()[k]);
  image->GetPointData()->AddArray(wet);
  image->GetPointData()->SetActiveScalars("eta");

  fs::path temp = file;
  temp += ".tmp";
  vtkNew<vtkXMLImageDataWriter> writer;
  writer->SetFileName(temp.c_str());
  writer->SetInputData(image);
  writer->SetDataModeToBinary();
  if (writer->Write() != 1) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw InputError(file.string() + ": cannot write VTK image");
  }
  std::error_code ec;
  fs::rename(temp, file, ec);
  if (ec) throw InputError(file.string() + ": cannot rename into place: " + ec.message());
}

void writePvdIndex(const fs::path& file, const std::vector<PvdEntry>& entries) {
  writeFileAtomically(file, [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
           "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
           "  <Collection>\n";
    char line[512];
    for (const auto& entry : entries) {
      std::snprintf(line, sizeof line, "    <DataSet timestep=\"%.9g\" part=\"0\" file=\"%s\"/>\n",
                    entry.time, entry.file.c_str());
      out << line;
    }
    out << "  </Collection>\n</VTKFile>\n";
  });
}

}  // namespace wb
