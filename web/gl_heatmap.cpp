// gl_heatmap.cpp: compiles shaders/heatmap.vert.glsl + heatmap.frag.glsl once, keeps the grid in
// an R32F texture (re-uploaded only when the values change) and draws it from an ImDrawCallback.
#include "gl_heatmap.hpp"

#include <GLES3/gl3.h>

#include <cstdio>

extern const unsigned char llmplan_shader_heatmap_vert[];
extern const unsigned char llmplan_shader_heatmap_frag[];

namespace llmplan::web {
namespace {

struct Gl {
  bool tried = false;
  GLuint program = 0, vao = 0, texture = 0;
  GLint u_values = -1, u_grid = -1, u_mode = -1, u_hover = -1, u_size_px = -1;
  std::string error;
  std::vector<float> uploaded;
  int rows = 0, columns = 0;
};
Gl g;

// What one callback draws; the draw list keeps a pointer to it until the frame is rendered.
struct Job {
  ImVec2 min, max;
  int mode = 0, hover = -1;
};
Job g_jobs[2];

GLuint compile(GLenum type, const char* source) {
  const GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = "";
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    g.error = std::string(type == GL_VERTEX_SHADER ? "heatmap.vert.glsl: " : "heatmap.frag.glsl: ") + log;
    std::fprintf(stderr, "llmplan: %s\n", g.error.c_str());
    glDeleteShader(s);
    return 0;
  }
  return s;
}

bool ensure_program() {
  if (g.tried) return g.program != 0;
  g.tried = true;
  const GLuint vs = compile(GL_VERTEX_SHADER, reinterpret_cast<const char*>(llmplan_shader_heatmap_vert));
  const GLuint fs = compile(GL_FRAGMENT_SHADER, reinterpret_cast<const char*>(llmplan_shader_heatmap_frag));
  if (!vs || !fs) return false;
  const GLuint p = glCreateProgram();
  glAttachShader(p, vs);
  glAttachShader(p, fs);
  glLinkProgram(p);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024] = "";
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    g.error = std::string("heatmap program: ") + log;
    std::fprintf(stderr, "llmplan: %s\n", g.error.c_str());
    glDeleteProgram(p);
    return false;
  }
  g.program = p;
  g.u_values = glGetUniformLocation(p, "u_values");
  g.u_grid = glGetUniformLocation(p, "u_grid");
  g.u_mode = glGetUniformLocation(p, "u_mode");
  g.u_hover = glGetUniformLocation(p, "u_hover");
  g.u_size_px = glGetUniformLocation(p, "u_size_px");
  glGenVertexArrays(1, &g.vao);  // no attributes: the vertex shader uses gl_VertexID
  glGenTextures(1, &g.texture);
  glBindTexture(GL_TEXTURE_2D, g.texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  const float none = -1.0f;
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, 1, 1, 0, GL_RED, GL_FLOAT, &none);
  return true;
}

void upload(const std::vector<float>& values, int rows, int columns) {
  if (values == g.uploaded && rows == g.rows && columns == g.columns) return;
  glBindTexture(GL_TEXTURE_2D, g.texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, columns, rows, 0, GL_RED, GL_FLOAT, values.data());
  g.uploaded = values;
  g.rows = rows;
  g.columns = columns;
}

// Runs inside ImGui_ImplOpenGL3_RenderDrawData: viewport and scissor to the job's rectangle
// (framebuffer pixels, y up), one triangle through our program.
void draw_job(const ImDrawList*, const ImDrawCmd* cmd) {
  const Job& job = *static_cast<const Job*>(cmd->UserCallbackData);
  const ImDrawData* dd = ImGui::GetDrawData();
  const ImVec2 scale = dd->FramebufferScale, off = dd->DisplayPos;
  const float fb_h = dd->DisplaySize.y * scale.y;
  const float x0 = (job.min.x - off.x) * scale.x, x1 = (job.max.x - off.x) * scale.x;
  const float y0 = (job.min.y - off.y) * scale.y, y1 = (job.max.y - off.y) * scale.y;
  const ImVec4 clip = cmd->ClipRect;
  const float cx0 = (clip.x - off.x) * scale.x, cx1 = (clip.z - off.x) * scale.x;
  const float cy0 = (clip.y - off.y) * scale.y, cy1 = (clip.w - off.y) * scale.y;
  if (cx1 <= cx0 || cy1 <= cy0) return;
  glViewport(static_cast<GLint>(x0), static_cast<GLint>(fb_h - y1), static_cast<GLsizei>(x1 - x0),
             static_cast<GLsizei>(y1 - y0));
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>(cx0), static_cast<GLint>(fb_h - cy1), static_cast<GLsizei>(cx1 - cx0),
            static_cast<GLsizei>(cy1 - cy0));
  glDisable(GL_BLEND);
  glUseProgram(g.program);
  glBindVertexArray(g.vao);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, g.texture);
  glUniform1i(g.u_values, 0);
  glUniform2i(g.u_grid, g.columns, g.rows);
  glUniform1i(g.u_mode, job.mode);
  glUniform1i(g.u_hover, job.hover);
  glUniform2f(g.u_size_px, x1 - x0, y1 - y0);
  glDrawArrays(GL_TRIANGLES, 0, 3);
}

bool queue(ImDrawList* dl, Job& job) {
  dl->AddCallback(draw_job, &job);
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
  return true;
}

}  // namespace

bool heatmap_draw(ImDrawList* dl, ImVec2 min, ImVec2 max, const std::vector<float>& values, int rows, int columns,
                  int hover) {
  if (!ensure_program() || rows <= 0 || columns <= 0 || values.size() != static_cast<size_t>(rows * columns))
    return false;
  upload(values, rows, columns);
  g_jobs[0] = {min, max, 0, hover};
  return queue(dl, g_jobs[0]);
}

bool heatmap_draw_legend(ImDrawList* dl, ImVec2 min, ImVec2 max) {
  if (!ensure_program()) return false;
  g_jobs[1] = {min, max, 1, -1};
  return queue(dl, g_jobs[1]);
}

const std::string& heatmap_error() { return g.error; }

}  // namespace llmplan::web
