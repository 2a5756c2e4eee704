#include "app/export/vti_writer.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
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
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "app/export/output_file.hpp"
#include "core/errors.hpp"
#include "core/run/tick_steps.hpp"
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

// What the file system said: VTK's error codes below FirstVTKErrorCode are errno values (a full
// disk is 28, ENOSPC); otherwise the reason of its report, if it names one.
std::string systemReason(unsigned long code, const ErrorCatcher& errors) {
  if (code == vtkErrorCode::OutOfDiskSpaceError) return std::strerror(ENOSPC);
  if (code > 0 && code < vtkErrorCode::FirstVTKErrorCode) return std::strerror(int(code));
  return errors.summary();
}

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
    const std::string reason = systemReason(writer.GetErrorCode(), *errors);
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

// The domain's grid as an image whose points are the cell centres.
vtkNew<vtkImageData> imageOf(const Grid& grid) {
  vtkNew<vtkImageData> image;
  image->SetDimensions(grid.nx, grid.ny, 1);
  image->SetSpacing(grid.dx, grid.dx, grid.dx);
  image->SetOrigin(0.5 * grid.dx, 0.5 * grid.dx, 0.0);
  return image;
}

// The rest depth and the wet mask as point arrays.
void addDomainArrays(vtkImageData& image, const Domain& domain) {
  image.GetPointData()->AddArray(toArray(domain.restDepth(), "rest_depth"));
  vtkNew<vtkUnsignedCharArray> wet;
  wet->SetName("wet");
  wet->SetNumberOfTuples(vtkIdType(domain.wetMask().size()));
  for (std::size_t k = 0; k < domain.wetMask().size(); ++k)
    wet->SetValue(vtkIdType(k), domain.wetMask()[k]);
  image.GetPointData()->AddArray(wet);
}
}  // namespace

void writeVtiFrame(const fs::path& file, const Field2D& eta, const Domain& domain,
                   VelocityFields velocity) {
  vtkNew<vtkImageData> image = imageOf(domain.grid());
  image->GetPointData()->AddArray(toArray(eta, "eta"));
  addDomainArrays(*image, domain);
  image->GetPointData()->SetActiveScalars("eta");
  if (velocity.present()) {
    image->GetPointData()->AddArray(toVectors(*velocity.u, *velocity.v));
    image->GetPointData()->SetActiveVectors("velocity");
  }
  vtkNew<vtkXMLImageDataWriter> writer;
  writer->SetInputData(image);
  writeAtomically(*writer, file, "VTK image");
}

void writeVtiMaxMap(const fs::path& file, const MaxMap& map, const Domain& domain) {
  vtkNew<vtkImageData> image = imageOf(domain.grid());
  image->GetPointData()->AddArray(toArray(map.etaMax(), "eta_max"));
  image->GetPointData()->AddArray(toArray(map.depthMax(), "depth_max"));
  image->GetPointData()->AddArray(toArray(map.arrival(), "arrival_time"));
  addDomainArrays(*image, domain);
  image->GetPointData()->SetActiveScalars("eta_max");
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

BodyMesh meshOf(const BodyGeometry& geometry) {
  BodyMesh mesh;
  for (const auto& v : geometry.vertices)
    mesh.vertices.push_back({v.x(), v.y(), v.z()});
  mesh.triangles = geometry.triangles;
  return mesh;
}

BodyMesh boxMesh(double lx, double ly, double lz) {
  BodyMesh mesh;
  for (int k = 0; k < 8; ++k)
    mesh.vertices.push_back(
        {(k & 1 ? 0.5 : -0.5) * lx, (k & 2 ? 0.5 : -0.5) * ly, (k & 4 ? 0.5 : -0.5) * lz});
  // Two triangles per face, counter-clockwise seen from outside.
  const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : faces) {
    mesh.triangles.push_back({f[0], f[1], f[2]});
    mesh.triangles.push_back({f[0], f[2], f[3]});
  }
  return mesh;
}

// v' = v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z): the rotation of a unit quaternion.
std::array<double, 3> rotate(const std::array<double, 4>& q, const std::array<double, 3>& v) {
  const double w = q[0], u[3] = {q[1], q[2], q[3]};
  const double t[3] = {2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]),
                       2 * (u[0] * v[1] - u[1] * v[0])};
  return {v[0] + w * t[0] + u[1] * t[2] - u[2] * t[1], v[1] + w * t[1] + u[2] * t[0] - u[0] * t[2],
          v[2] + w * t[2] + u[0] * t[1] - u[1] * t[0]};
}

void writeVtpRigidBodies(const fs::path& file, const std::vector<RigidBodyFrame>& bodies) {
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  vtkNew<vtkCellArray> triangles;
  vtkNew<vtkIntArray> ids;
  ids->SetName("id");
  vtkNew<vtkDoubleArray> orientation, velocity, displaced;
  orientation->SetName("orientation");  // (w, x, y, z)
  orientation->SetNumberOfComponents(4);
  velocity->SetName("velocity");
  velocity->SetNumberOfComponents(3);
  displaced->SetName("displaced_volume");
  for (const RigidBodyFrame& body : bodies) {
    const vtkIdType first = points->GetNumberOfPoints();
    for (const auto& v : body.mesh->vertices) {
      const auto r = rotate(body.orientation, v);
      points->InsertNextPoint(body.centre[0] + r[0], body.centre[1] + r[1], body.centre[2] + r[2]);
    }
    for (const auto& t : body.mesh->triangles) {
      const vtkIdType corners[3] = {first + t[0], first + t[1], first + t[2]};
      triangles->InsertNextCell(3, corners);
      ids->InsertNextValue(body.id);
      orientation->InsertNextTuple(body.orientation.data());
      velocity->InsertNextTuple(body.velocity.data());
      displaced->InsertNextValue(body.displacedVolume);
    }
  }
  vtkNew<vtkPolyData> poly;
  poly->SetPoints(points);
  poly->SetPolys(triangles);
  for (vtkDataArray* array : {static_cast<vtkDataArray*>(ids.GetPointer()),
                              static_cast<vtkDataArray*>(orientation.GetPointer()),
                              static_cast<vtkDataArray*>(velocity.GetPointer()),
                              static_cast<vtkDataArray*>(displaced.GetPointer())})
    poly->GetCellData()->AddArray(array);
  poly->GetCellData()->SetActiveVectors("velocity");
  vtkNew<vtkXMLPolyDataWriter> writer;
  writer->SetInputData(poly);
  writeAtomically(*writer, file, "VTK poly data");
}

std::string pvdHeader() {
  return "<?xml version=\"1.0\"?>\n"
         "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
         "  <Collection>\n";
}

std::string pvdEntry(const PvdEntry& entry) {
  char line[512];
  std::snprintf(line, sizeof line, "    <DataSet timestep=\"%s\" part=\"0\" file=\"%s\"/>\n",
                timeText(entry.time).c_str(), entry.file.c_str());
  return line;
}

std::string pvdTrailer() {
  return "  </Collection>\n</VTKFile>\n";
}

}  // namespace wb
