#include "app/export/vti_writer.hpp"

#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkExecutive.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkUnsignedCharArray.h>
#include <vtkXMLImageDataWriter.h>
#include <vtkXMLPolyDataWriter.h>

#include <algorithm>
#include <cstdio>
#include <system_error>

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

// (u, v, 0) per point: ParaView's Glyph and Stream Tracer filters want 3-component vectors.
vtkNew<vtkFloatArray> toVectors(const Field2D& u, const Field2D& v) {
  vtkNew<vtkFloatArray> array;
  array->SetName("velocity");
  array->SetNumberOfComponents(3);
  array->SetNumberOfTuples(vtkIdType(u.size()));
  for (std::size_t k = 0; k < u.size(); ++k) {
    const float tuple[3] = {u.data()[k], v.data()[k], 0.0f};
    array->SetTypedTuple(vtkIdType(k), tuple);
  }
  return array;
}

// Keeps VTK's multi-line error reports off stderr (the caller reports one line) and keeps the
// reason ("Error code: ..."), which names what the file system said.
class ErrorCatcher : public vtkCommand {
 public:
  static ErrorCatcher* New() { return new ErrorCatcher; }
  void Execute(vtkObject*, unsigned long, void* data) override {
    if (data) reason += std::string(static_cast<const char*>(data)) + " ";
  }
  // From "Error code" on when VTK names the system error, on one line.
  std::string summary() const {
    std::string text = reason;
    const auto code = text.find("Error code");
    if (code == std::string::npos) return {};
    text = text.substr(code, text.find('\n', code) - code);
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
  }
  std::string reason;
};

// Runs the configured XML writer into a temporary beside `file` and renames it into place.
void writeAtomically(vtkXMLWriter& writer, const fs::path& file, const char* what) {
  fs::path temp = file;
  temp += ".tmp";
  writer.SetFileName(temp.c_str());
  writer.SetDataModeToBinary();
  vtkNew<ErrorCatcher> errors;
  writer.AddObserver(vtkCommand::ErrorEvent, errors);
  writer.GetExecutive()->AddObserver(vtkCommand::ErrorEvent, errors);
  // With an error observer VTK may report success from Write(): trust the error report too.
  const bool written = writer.Write() == 1 && writer.GetErrorCode() == 0 &&
                       errors->reason.empty() && fs::exists(temp);
  if (!written) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    const std::string reason = errors->summary();
    throw InputError(file.string() + ": cannot write " + what +
                     (reason.empty() ? std::string() : " (" + reason + ")"));
  }
  std::error_code ec;
  fs::rename(temp, file, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw InputError(file.string() + ": cannot rename into place: " + ec.message());
  }
}
}  // namespace

void writeVtiFrame(const fs::path& file, const Field2D& eta, const Domain& domain,
                   VelocityFields velocity) {
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
  if (velocity.present()) {
    image->GetPointData()->AddArray(toVectors(*velocity.u, *velocity.v));
    image->GetPointData()->SetActiveVectors("velocity");
  }
  vtkNew<vtkXMLImageDataWriter> writer;
  writer->SetInputData(image);
  writeAtomically(*writer, file, "VTK image");
}

void writeVtpBodies(const fs::path& file, const std::vector<FloatingBody>& bodies, double boxSize) {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> vertices;
  vtkNew<vtkFloatArray> velocity;
  velocity->SetName("velocity");
  velocity->SetNumberOfComponents(3);
  vtkNew<vtkIntArray> ids;
  ids->SetName("id");
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const FloatingBody& body = bodies[k];
    const vtkIdType point = points->InsertNextPoint(body.x, body.y, body.z);
    vertices->InsertNextCell(1, &point);
    velocity->InsertNextTuple3(body.vx, body.vy, 0.0);
    ids->InsertNextValue(int(k));
  }
  vtkNew<vtkPolyData> poly;
  poly->SetPoints(points);
  poly->SetVerts(vertices);
  poly->GetPointData()->AddArray(velocity);
  poly->GetPointData()->SetActiveVectors("velocity");
  poly->GetPointData()->AddArray(ids);
  vtkNew<vtkFloatArray> size;  // the edge of every box (m): a glyph scale for ParaView
  size->SetName("box_size");
  size->InsertNextValue(float(boxSize));
  poly->GetFieldData()->AddArray(size);
  vtkNew<vtkXMLPolyDataWriter> writer;
  writer->SetInputData(poly);
  writeAtomically(*writer, file, "VTK poly data");
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
