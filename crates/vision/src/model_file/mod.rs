//! ONNX model files read and edited in memory at the protobuf wire level, before the
//! runtime (OpenVINO or ONNX Runtime) loads them. Nothing is written back to disk, so a
//! file's checksum still identifies the model that runs. Three edits here, and two in
//! [`quantized`] for OpenCV Zoo's block-quantised YuNet and SFace (their weights folded to
//! floats, YuNet's input freed to any size):
//!
//! - [`prelu_as_max`], for the face recogniser: each `PRelu(x, slope)` whose slopes are
//!   all at most 1 becomes `Max(x, Mul(x, slope))`, which is the same function (for
//!   `a <= 1`, `a*x <= x` when `x >= 0` and `a*x >= x` when `x < 0`) and gives bit-identical
//!   floats, since the rounded product keeps its side of `x`. ONNX Runtime's CPU `PRelu`
//!   broadcasts its per-channel slope slowly: on MobileFaceNet it took more than half the
//!   time, and the rewritten network embeds a face about 1.8x faster (docs/benchmarks.md,
//!   Decisions the figures made). Used on ONNX Runtime only: OpenVINO runs `PRelu` fast.
//! - [`keep_classes`], for the bib reader's text recogniser: it ends in one linear layer
//!   from 120 features to 18,710 classes, then a softmax, at every time step. Bibs are read
//!   in Latin script, so all but ~525 columns are never chosen; the layer's weight
//!   `[hidden, classes]` and bias `[classes]` are cut to the kept columns. The network then
//!   computes and normalises 525 scores a step instead of 18,710: bib reading costs 8–15 %
//!   less CPU, and what it adds to ingestion on race photos falls from +35 % to +26 %
//!   (docs/benchmarks.md, Decisions the figures made). The probabilities become those
//!   among the kept classes; the shop's confidence threshold (0.8) was measured against
//!   them.
//!
//! - [`rgb_u8_input`], for the face detector: the network takes the photo's interleaved
//!   8-bit RGB rows as they are (reversed to BGR by a `Gather` for YuNet, trained on
//!   OpenCV's channel order) (`[1, height, width, 3]`, `uint8`) and converts, transposes
//!   and normalises them itself (`Cast`, `Transpose`, `Sub`, `Mul` before its first
//!   node). The engine then copies a quarter of the bytes into the runtime's input instead
//!   of writing a normalised float plane per channel (72 MB for a 3000-px pass), and the
//!   numbers are the same: the float of a byte, minus the mean, times the power-of-two
//!   `1 / std`, are exact.
//!
//! Only the fields these need are understood (ONNX's `onnx.proto`): `ModelProto.graph`
//! (7) and `.metadata_props` (14); `GraphProto.node` (1), `.initializer` (5), `.output`
//! (12) and `.value_info` (13); `NodeProto.input` (1), `.output` (2), `.name` (3),
//! `.op_type` (4) and `.domain` (7); `TensorProto.dims` (1), `.data_type` (2),
//! `.float_data` (4), `.name` (8) and `.raw_data` (9). Every other field is copied byte for
//! byte. [`keep_classes`] drops the shape hints of `value_info` (ONNX Runtime infers them
//! again), and a graph output's dimension equal to the class count becomes the kept count.

mod quantized;

use std::collections::HashSet;

use crate::error::{Error, Result};

pub(crate) use self::quantized::{fold_dequantize, free_image_size};

/// `ModelProto` fields.
const MODEL_GRAPH: u32 = 7;
const MODEL_METADATA: u32 = 14;
/// `GraphProto` fields.
const GRAPH_NODE: u32 = 1;
const GRAPH_INITIALIZER: u32 = 5;
const GRAPH_INPUT: u32 = 11;
const GRAPH_OUTPUT: u32 = 12;
const GRAPH_VALUE_INFO: u32 = 13;
/// `NodeProto` fields.
const NODE_INPUT: u32 = 1;
const NODE_OUTPUT: u32 = 2;
const NODE_NAME: u32 = 3;
const NODE_OP_TYPE: u32 = 4;
const NODE_ATTRIBUTE: u32 = 5;
const NODE_DOMAIN: u32 = 7;
/// `AttributeProto` fields and types; `ValueInfoProto`, `TypeProto` and
/// `TensorShapeProto` fields.
const ATTRIBUTE_NAME: u32 = 1;
const ATTRIBUTE_INT: u32 = 3;
const ATTRIBUTE_INTS: u32 = 8;
const ATTRIBUTE_TYPE: u32 = 20;
const ATTRIBUTE_TYPE_INT: u64 = 2;
const ATTRIBUTE_TYPE_INTS: u64 = 7;
const VALUE_INFO_NAME: u32 = 1;
const VALUE_INFO_TYPE: u32 = 2;
const TYPE_TENSOR: u32 = 1;
const TENSOR_TYPE_ELEM_TYPE: u32 = 1;
const TENSOR_TYPE_SHAPE: u32 = 2;
const SHAPE_DIM: u32 = 1;
const DIM_VALUE: u32 = 1;
const DIM_PARAM: u32 = 2;
/// `TensorProto` fields, and its element type FLOAT.
const TENSOR_DIMS: u32 = 1;
const TENSOR_DATA_TYPE: u32 = 2;
const TENSOR_FLOAT_DATA: u32 = 4;
const TENSOR_NAME: u32 = 8;
const TENSOR_RAW_DATA: u32 = 9;
const FLOAT: u64 = 1;
const UINT8: u64 = 2;
const INT64: u64 = 7;

/// Protobuf wire types.
const VARINT: u8 = 0;
const FIXED64: u8 = 1;
const BYTES: u8 = 2;
const FIXED32: u8 = 5;

/// One field of a message: its number, wire type, value (the varint, or the bytes of a
/// length-delimited field) and its whole encoding, for copying it unchanged.
struct Field<'a> {
    number: u32,
    wire: u8,
    varint: u64,
    bytes: &'a [u8],
    encoded: &'a [u8],
}

fn malformed(what: &str) -> Error {
    Error::Model(format!("model file is not a valid ONNX model ({what})"))
}

fn read_varint(buf: &[u8], pos: &mut usize) -> Result<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *buf.get(*pos).ok_or_else(|| malformed("truncated varint"))?;
        *pos += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(malformed("varint longer than 10 bytes"))
}

/// The fields of one message, in order.
fn fields(buf: &[u8]) -> Result<Vec<Field<'_>>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < buf.len() {
        let start = pos;
        let key = read_varint(buf, &mut pos)?;
        let number = u32::try_from(key >> 3).map_err(|_| malformed("field number"))?;
        let wire = (key & 7) as u8;
        let (mut varint, mut bytes): (u64, &[u8]) = (0, &[]);
        let take = |pos: &mut usize, n: usize| -> Result<&[u8]> {
            let end = pos
                .checked_add(n)
                .filter(|&e| e <= buf.len())
                .ok_or_else(|| malformed("field runs past the end"))?;
            let s = &buf[*pos..end];
            *pos = end;
            Ok(s)
        };
        match wire {
            VARINT => varint = read_varint(buf, &mut pos)?,
            FIXED64 => bytes = take(&mut pos, 8)?,
            BYTES => {
                let n = usize::try_from(read_varint(buf, &mut pos)?)
                    .map_err(|_| malformed("length"))?;
                bytes = take(&mut pos, n)?;
            }
            FIXED32 => bytes = take(&mut pos, 4)?,
            _ => return Err(malformed("unknown wire type")),
        }
        out.push(Field {
            number,
            wire,
            varint,
            bytes,
            encoded: &buf[start..pos],
        });
    }
    Ok(out)
}

/// The values of a packed repeated varint field.
fn packed_varints(bytes: &[u8]) -> Result<Vec<u64>> {
    let mut values = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        values.push(read_varint(bytes, &mut pos)?);
    }
    Ok(values)
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_key(out: &mut Vec<u8>, number: u32, wire: u8) {
    put_varint(out, (u64::from(number) << 3) | u64::from(wire));
}

fn put_bytes(out: &mut Vec<u8>, number: u32, bytes: &[u8]) {
    put_key(out, number, BYTES);
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// `buf` with every length-delimited field `number` replaced by `f` of its bytes.
fn map_field(buf: &[u8], number: u32, f: &dyn Fn(&[u8]) -> Result<Vec<u8>>) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(buf.len());
    for field in fields(buf)? {
        if field.number == number && field.wire == BYTES {
            put_bytes(&mut out, number, &f(field.bytes)?);
        } else {
            out.extend_from_slice(field.encoded);
        }
    }
    Ok(out)
}

/// The value of the model's metadata entry `key`, if it has one.
pub(crate) fn metadata(model: &[u8], key: &str) -> Result<Option<String>> {
    for field in fields(model)? {
        if field.number != MODEL_METADATA || field.wire != BYTES {
            continue;
        }
        let (mut k, mut v) = (None, None);
        for entry in fields(field.bytes)? {
            match (entry.number, entry.wire) {
                (1, BYTES) => k = Some(entry.bytes),
                (2, BYTES) => v = Some(entry.bytes),
                _ => {}
            }
        }
        if k == Some(key.as_bytes()) {
            let v = std::str::from_utf8(v.unwrap_or_default())
                .map_err(|_| malformed("metadata is not UTF-8"))?;
            return Ok(Some(v.to_string()));
        }
    }
    Ok(None)
}

/// The model with every `PRelu` whose slope is a float initializer of values at most 1
/// computed as `Max(x, Mul(x, slope))` (see the module's documentation), and how many
/// were rewritten. Other `PRelu`s (a slope above 1, or computed in the graph) are left
/// as they are, so any model loads; only the top-level graph is edited.
pub(crate) fn prelu_as_max(model: &[u8]) -> Result<(Vec<u8>, usize)> {
    let mut rewritten = 0;
    let mut out = Vec::with_capacity(model.len() + 4096);
    for field in fields(model)? {
        if field.number != MODEL_GRAPH || field.wire != BYTES {
            out.extend_from_slice(field.encoded);
            continue;
        }
        let graph_fields = fields(field.bytes)?;
        let mut nodes = Vec::with_capacity(graph_fields.len());
        for g in &graph_fields {
            nodes.push(if (g.number, g.wire) == (GRAPH_NODE, BYTES) {
                Some(Node::parse(g.bytes)?)
            } else {
                None
            });
        }
        let prelu = |n: &Node<'_>| {
            n.op_type == b"PRelu"
                && n.domain.is_empty()
                && n.inputs.len() == 2
                && n.outputs.len() == 1
        };
        // Only the slopes are decoded, not every weight of the model.
        let slopes: HashSet<&[u8]> = nodes
            .iter()
            .flatten()
            .filter(|n| prelu(n))
            .map(|n| n.inputs[1])
            .collect();
        let mut slopes_at_most_one = HashSet::new();
        for g in &graph_fields {
            if (g.number, g.wire) == (GRAPH_INITIALIZER, BYTES)
                && let Some((name, values)) = float_tensor(g.bytes, &slopes)?
                && !values.is_empty()
                && values.iter().all(|v| *v <= 1.0)
            {
                slopes_at_most_one.insert(name);
            }
        }
        let mut graph = Vec::with_capacity(field.bytes.len() + 4096);
        for (g, node) in graph_fields.iter().zip(nodes) {
            match node {
                Some(n) if prelu(&n) && slopes_at_most_one.contains(n.inputs[1]) => {
                    // Names derived from the output's, which is unique in the graph.
                    let (x, slope, y) = (n.inputs[0], n.inputs[1], n.outputs[0]);
                    let scaled = [b"raceshot/prelu/".as_slice(), y, b"/slope_x"].concat();
                    let max_name = [b"raceshot/prelu/".as_slice(), y, b"/max"].concat();
                    let mul = node_bytes(&scaled, b"Mul", &[x, slope], &[&scaled]);
                    let max = node_bytes(&max_name, b"Max", &[x, &scaled], &[y]);
                    put_bytes(&mut graph, GRAPH_NODE, &mul);
                    put_bytes(&mut graph, GRAPH_NODE, &max);
                    rewritten += 1;
                }
                _ => graph.extend_from_slice(g.encoded),
            }
        }
        put_bytes(&mut out, MODEL_GRAPH, &graph);
    }
    Ok((out, rewritten))
}

/// The name of the input [`rgb_u8_input`] gives a model.
pub(crate) const RGB_INPUT: &str = "raceshot/rgb";

/// The model with its image input taking interleaved 8-bit RGB, `[1, height, width, 3]`
/// (see the module's documentation): the first graph input that is not an initializer is
/// replaced by [`RGB_INPUT`], and `Cast` to float, `Transpose` to NCHW, `Sub(mean)` and
/// `Mul(1 / std)` compute the tensor it was, under its old name, before the first node.
/// Also answers that input's NCHW dimensions as the file declares them (-1 where any
/// size goes); a fixed height and width stay fixed in the new input.
pub(crate) fn rgb_u8_input(
    model: &[u8],
    mean: f32,
    std: f32,
    bgr: bool,
) -> Result<(Vec<u8>, Vec<i64>)> {
    let dims = std::cell::RefCell::new(Vec::new());
    let out = map_field(model, MODEL_GRAPH, &|graph| {
        let (graph, image_dims) = rgb_u8_graph(graph, mean, std, bgr)?;
        dims.borrow_mut().push(image_dims);
        Ok(graph)
    })?;
    match dims.into_inner().as_slice() {
        [image_dims] => Ok((out, image_dims.clone())),
        _ => Err(malformed("not exactly one graph")),
    }
}

/// [`rgb_u8_input`] of one `GraphProto`.
fn rgb_u8_graph(graph: &[u8], mean: f32, std: f32, bgr: bool) -> Result<(Vec<u8>, Vec<i64>)> {
    let graph_fields = fields(graph)?;
    let mut initializers = HashSet::new();
    for g in &graph_fields {
        if (g.number, g.wire) == (GRAPH_INITIALIZER, BYTES) {
            initializers.insert(bytes_field(g.bytes, TENSOR_NAME)?);
        }
    }
    let mut image = None;
    for g in &graph_fields {
        if (g.number, g.wire) == (GRAPH_INPUT, BYTES) {
            let name = bytes_field(g.bytes, VALUE_INFO_NAME)?;
            if !initializers.contains(name) {
                image = Some((name, tensor_dims(g.bytes)?));
                break;
            }
        }
    }
    let (image, dims) = image.ok_or_else(|| malformed("no image input"))?;
    let name = |suffix: &str| [RGB_INPUT.as_bytes(), b"/", suffix.as_bytes()].concat();
    let (float, nchw, centred) = (name("float"), name("nchw"), name("centred"));
    let (mean_name, scale_name) = (name("mean"), name("inv_std"));
    let mut cast = node_bytes(&float, b"Cast", &[RGB_INPUT.as_bytes()], &[&float]);
    put_bytes(&mut cast, NODE_ATTRIBUTE, &int_attribute(b"to", FLOAT));
    // A network trained on OpenCV's BGR images gets its channels reversed.
    let (bgr_name, order_name) = (name("bgr"), name("bgr_order"));
    let mut gather = node_bytes(&bgr_name, b"Gather", &[&float, &order_name], &[&bgr_name]);
    put_bytes(&mut gather, NODE_ATTRIBUTE, &int_attribute(b"axis", 3));
    let channels = if bgr { &bgr_name } else { &float };
    let mut transpose = node_bytes(&nchw, b"Transpose", &[channels], &[&nchw]);
    put_bytes(
        &mut transpose,
        NODE_ATTRIBUTE,
        &ints_attribute(b"perm", &[0, 3, 1, 2]),
    );
    let sub = node_bytes(&centred, b"Sub", &[&nchw, &mean_name], &[&centred]);
    let mul = node_bytes(image, b"Mul", &[&centred, &scale_name], &[image]);

    let mut constants = vec![scalar(&mean_name, mean), scalar(&scale_name, 1.0 / std)];
    let mut prologue = vec![&cast, &transpose, &sub, &mul];
    if bgr {
        constants.push(int64_vector(&order_name, &[2, 1, 0]));
        prologue.insert(1, &gather);
    }
    let mut out = Vec::with_capacity(graph.len() + 1024);
    let (mut nodes_placed, mut constants_placed) = (false, false);
    for g in &graph_fields {
        match (g.number, g.wire) {
            (GRAPH_NODE, BYTES) if !nodes_placed => {
                for n in &prologue {
                    put_bytes(&mut out, GRAPH_NODE, n);
                }
                nodes_placed = true;
                out.extend_from_slice(g.encoded);
            }
            (GRAPH_INITIALIZER, BYTES) if !constants_placed => {
                for c in &constants {
                    put_bytes(&mut out, GRAPH_INITIALIZER, c);
                }
                constants_placed = true;
                out.extend_from_slice(g.encoded);
            }
            (GRAPH_INPUT, BYTES) if bytes_field(g.bytes, VALUE_INFO_NAME)? == image => {
                let (h, w) = (dims.get(2).copied(), dims.get(3).copied());
                put_bytes(&mut out, GRAPH_INPUT, &rgb_value_info(h, w));
            }
            _ => out.extend_from_slice(g.encoded),
        }
    }
    if !nodes_placed {
        return Err(malformed("a graph without nodes"));
    }
    if !constants_placed {
        for c in &constants {
            put_bytes(&mut out, GRAPH_INITIALIZER, c);
        }
    }
    Ok((out, dims))
}

/// The dimensions of a tensor `ValueInfoProto`: each `dim_value`, or -1 for a named or
/// unknown one (none when it declares no shape).
fn tensor_dims(value_info: &[u8]) -> Result<Vec<i64>> {
    let ty = bytes_field(value_info, VALUE_INFO_TYPE)?;
    let tensor = bytes_field(ty, TYPE_TENSOR)?;
    let shape = bytes_field(tensor, TENSOR_TYPE_SHAPE)?;
    let mut dims = Vec::new();
    for d in fields(shape)? {
        if (d.number, d.wire) != (SHAPE_DIM, BYTES) {
            continue;
        }
        let value = fields(d.bytes)?
            .into_iter()
            .find(|f| (f.number, f.wire) == (DIM_VALUE, VARINT))
            .and_then(|f| i64::try_from(f.varint).ok())
            .filter(|v| *v > 0);
        dims.push(value.unwrap_or(-1));
    }
    Ok(dims)
}

/// The first length-delimited field `number` of a message (a name), empty if it has none.
fn bytes_field(message: &[u8], number: u32) -> Result<&[u8]> {
    Ok(fields(message)?
        .into_iter()
        .find(|f| (f.number, f.wire) == (number, BYTES))
        .map_or(&[][..], |f| f.bytes))
}

/// `ValueInfoProto` of [`RGB_INPUT`]: `uint8 [1, height, width, 3]`, the height and width
/// fixed where given (and positive).
fn rgb_value_info(height: Option<i64>, width: Option<i64>) -> Vec<u8> {
    let fixed = |d: Option<i64>, name| {
        d.and_then(|v| u64::try_from(v).ok())
            .filter(|v| *v > 0)
            .ok_or(name)
    };
    let shape = shape_bytes(&[Ok(1), fixed(height, "height"), fixed(width, "width"), Ok(3)]);
    let mut tensor = Vec::new();
    put_key(&mut tensor, TENSOR_TYPE_ELEM_TYPE, VARINT);
    put_varint(&mut tensor, UINT8);
    put_bytes(&mut tensor, TENSOR_TYPE_SHAPE, &shape);
    let mut ty = Vec::new();
    put_bytes(&mut ty, TYPE_TENSOR, &tensor);
    let mut info = Vec::new();
    put_bytes(&mut info, VALUE_INFO_NAME, RGB_INPUT.as_bytes());
    put_bytes(&mut info, VALUE_INFO_TYPE, &ty);
    info
}

/// A `TensorShapeProto`: each dimension a value, or a name where any size goes.
fn shape_bytes(dims: &[std::result::Result<u64, &str>]) -> Vec<u8> {
    let mut shape = Vec::new();
    for dim in dims {
        let mut d = Vec::new();
        match dim {
            Ok(value) => {
                put_key(&mut d, DIM_VALUE, VARINT);
                put_varint(&mut d, *value);
            }
            Err(param) => put_bytes(&mut d, DIM_PARAM, param.as_bytes()),
        }
        put_bytes(&mut shape, SHAPE_DIM, &d);
    }
    shape
}

/// A float scalar initializer.
fn scalar(name: &[u8], value: f32) -> Vec<u8> {
    let mut t = Vec::new();
    put_key(&mut t, TENSOR_DATA_TYPE, VARINT);
    put_varint(&mut t, FLOAT);
    put_bytes(&mut t, TENSOR_NAME, name);
    put_bytes(&mut t, TENSOR_RAW_DATA, &value.to_le_bytes());
    t
}

/// A one-dimensional int64 initializer.
fn int64_vector(name: &[u8], values: &[i64]) -> Vec<u8> {
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    raw_tensor(name, &[values.len() as u64], INT64, &raw)
}

/// A `TensorProto` initializer of `dims` and element type `data_type`, its values the
/// little-endian bytes `raw`.
fn raw_tensor(name: &[u8], dims: &[u64], data_type: u64, raw: &[u8]) -> Vec<u8> {
    let mut t = Vec::with_capacity(raw.len() + name.len() + 32);
    for &d in dims {
        put_key(&mut t, TENSOR_DIMS, VARINT);
        put_varint(&mut t, d);
    }
    put_key(&mut t, TENSOR_DATA_TYPE, VARINT);
    put_varint(&mut t, data_type);
    put_bytes(&mut t, TENSOR_NAME, name);
    put_bytes(&mut t, TENSOR_RAW_DATA, raw);
    t
}

fn int_attribute(name: &[u8], value: u64) -> Vec<u8> {
    let mut a = Vec::new();
    put_bytes(&mut a, ATTRIBUTE_NAME, name);
    put_key(&mut a, ATTRIBUTE_INT, VARINT);
    put_varint(&mut a, value);
    put_key(&mut a, ATTRIBUTE_TYPE, VARINT);
    put_varint(&mut a, ATTRIBUTE_TYPE_INT);
    a
}

fn ints_attribute(name: &[u8], values: &[u64]) -> Vec<u8> {
    let mut a = Vec::new();
    put_bytes(&mut a, ATTRIBUTE_NAME, name);
    for &v in values {
        put_key(&mut a, ATTRIBUTE_INTS, VARINT);
        put_varint(&mut a, v);
    }
    put_key(&mut a, ATTRIBUTE_TYPE, VARINT);
    put_varint(&mut a, ATTRIBUTE_TYPE_INTS);
    a
}

/// The fields of a `NodeProto` the rewrite looks at.
struct Node<'a> {
    op_type: &'a [u8],
    domain: &'a [u8],
    inputs: Vec<&'a [u8]>,
    outputs: Vec<&'a [u8]>,
}

impl<'a> Node<'a> {
    fn parse(node: &'a [u8]) -> Result<Self> {
        let mut n = Node {
            op_type: &[],
            domain: &[],
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        for f in fields(node)? {
            match (f.number, f.wire) {
                (NODE_INPUT, BYTES) => n.inputs.push(f.bytes),
                (NODE_OUTPUT, BYTES) => n.outputs.push(f.bytes),
                (NODE_OP_TYPE, BYTES) => n.op_type = f.bytes,
                (NODE_DOMAIN, BYTES) => n.domain = f.bytes,
                _ => {}
            }
        }
        Ok(n)
    }
}

fn node_bytes(name: &[u8], op_type: &[u8], inputs: &[&[u8]], outputs: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for i in inputs {
        put_bytes(&mut out, NODE_INPUT, i);
    }
    for o in outputs {
        put_bytes(&mut out, NODE_OUTPUT, o);
    }
    put_bytes(&mut out, NODE_NAME, name);
    put_bytes(&mut out, NODE_OP_TYPE, op_type);
    out
}

/// The name and values of a float initializer named in `wanted`, or `None` for any other
/// initializer. Values stored outside the file come back empty.
fn float_tensor<'a>(
    tensor: &'a [u8],
    wanted: &HashSet<&[u8]>,
) -> Result<Option<(&'a [u8], Vec<f32>)>> {
    let fs = fields(tensor)?;
    let name = fs
        .iter()
        .find(|f| (f.number, f.wire) == (TENSOR_NAME, BYTES))
        .map_or(&[][..], |f| f.bytes);
    if !wanted.contains(name) {
        return Ok(None);
    }
    let (mut data_type, mut values) = (0, Vec::new());
    let le = |b: &[u8]| f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    for f in fs {
        match (f.number, f.wire) {
            (TENSOR_DATA_TYPE, VARINT) => data_type = f.varint,
            (TENSOR_RAW_DATA | TENSOR_FLOAT_DATA, BYTES | FIXED32) => {
                if f.bytes.len() % 4 != 0 {
                    return Err(malformed("float data not a multiple of 4 bytes"));
                }
                values.extend(f.bytes.chunks_exact(4).map(le));
            }
            _ => {}
        }
    }
    Ok((data_type == FLOAT).then_some((name, values)))
}

/// The model with its classifier cut to the columns `keep` (class indices below
/// `classes`, in the order given): the one float initializer of shape
/// `[hidden, classes]` and the one of shape `[classes]` lose every other column.
/// Errors when the model has not exactly one of each, or stores them other than as
/// raw little-endian data.
pub(crate) fn keep_classes(model: &[u8], classes: usize, keep: &[usize]) -> Result<Vec<u8>> {
    if keep.is_empty() || keep.iter().any(|&k| k >= classes) {
        return Err(Error::Model(format!(
            "classes to keep must be some of the recognizer's {classes}"
        )));
    }
    let (mut weights, mut biases) = (0usize, 0usize);
    let mut out = Vec::with_capacity(model.len());
    for field in fields(model)? {
        if field.number != MODEL_GRAPH || field.wire != BYTES {
            out.extend_from_slice(field.encoded);
            continue;
        }
        let mut graph = Vec::with_capacity(field.bytes.len());
        for g in fields(field.bytes)? {
            match (g.number, g.wire) {
                (GRAPH_INITIALIZER, BYTES) => match cut_tensor(g.bytes, classes, keep)? {
                    Cut::Weight(t) => {
                        weights += 1;
                        put_bytes(&mut graph, GRAPH_INITIALIZER, &t);
                    }
                    Cut::Bias(t) => {
                        biases += 1;
                        put_bytes(&mut graph, GRAPH_INITIALIZER, &t);
                    }
                    Cut::Other => graph.extend_from_slice(g.encoded),
                },
                (GRAPH_OUTPUT, BYTES) => {
                    put_bytes(
                        &mut graph,
                        GRAPH_OUTPUT,
                        &output_dims(g.bytes, classes, keep.len())?,
                    );
                }
                (GRAPH_VALUE_INFO, _) => {}
                _ => graph.extend_from_slice(g.encoded),
            }
        }
        put_bytes(&mut out, MODEL_GRAPH, &graph);
    }
    if (weights, biases) != (1, 1) {
        return Err(Error::Model(format!(
            "text recognizer: expected one classifier weight [hidden, {classes}] and one bias [{classes}], found {weights} and {biases}"
        )));
    }
    Ok(out)
}

enum Cut {
    Weight(Vec<u8>),
    Bias(Vec<u8>),
    Other,
}

/// A float tensor of shape `[hidden, classes]` or `[classes]` with `keep`'s columns only.
fn cut_tensor(tensor: &[u8], classes: usize, keep: &[usize]) -> Result<Cut> {
    let fs = fields(tensor)?;
    let mut dims = Vec::new();
    let mut data_type = 0;
    let mut raw: Option<&[u8]> = None;
    for f in &fs {
        match (f.number, f.wire) {
            (TENSOR_DIMS, VARINT) => dims.push(f.varint),
            (TENSOR_DIMS, BYTES) => dims.extend(packed_varints(f.bytes)?),
            (TENSOR_DATA_TYPE, VARINT) => data_type = f.varint,
            (TENSOR_RAW_DATA, BYTES) => raw = Some(f.bytes),
            _ => {}
        }
    }
    let (rows, is_weight) = match dims.as_slice() {
        [h, c] if *c == classes as u64 => (*h as usize, true),
        [c] if *c == classes as u64 => (1, false),
        _ => return Ok(Cut::Other),
    };
    if data_type != FLOAT {
        return Ok(Cut::Other);
    }
    let raw = raw
        .filter(|r| r.len() == rows * classes * 4)
        .ok_or_else(|| {
            Error::Model("text recognizer: its classifier is not stored as raw float data".into())
        })?;
    let mut data = Vec::with_capacity(rows * keep.len() * 4);
    for row in raw.chunks_exact(classes * 4) {
        for &k in keep {
            data.extend_from_slice(&row[k * 4..k * 4 + 4]);
        }
    }
    let mut out = Vec::with_capacity(data.len() + 64);
    let mut dims_written = false;
    for f in &fs {
        match f.number {
            TENSOR_DIMS if !dims_written => {
                dims_written = true;
                if is_weight {
                    put_key(&mut out, TENSOR_DIMS, VARINT);
                    put_varint(&mut out, rows as u64);
                }
                put_key(&mut out, TENSOR_DIMS, VARINT);
                put_varint(&mut out, keep.len() as u64);
            }
            TENSOR_DIMS => {}
            TENSOR_RAW_DATA => put_bytes(&mut out, TENSOR_RAW_DATA, &data),
            _ => out.extend_from_slice(f.encoded),
        }
    }
    Ok(if is_weight {
        Cut::Weight(out)
    } else {
        Cut::Bias(out)
    })
}

/// A graph output (`ValueInfoProto`) whose dimensions equal to `classes` become `kept`:
/// `.type` (2) → `.tensor_type` (1) → `.shape` (2) → `.dim` (1) → `.dim_value` (1).
fn output_dims(value_info: &[u8], classes: usize, kept: usize) -> Result<Vec<u8>> {
    let dim = move |d: &[u8]| -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(d.len());
        for f in fields(d)? {
            if f.number == 1 && f.wire == VARINT && f.varint == classes as u64 {
                put_key(&mut out, 1, VARINT);
                put_varint(&mut out, kept as u64);
            } else {
                out.extend_from_slice(f.encoded);
            }
        }
        Ok(out)
    };
    let shape = move |s: &[u8]| map_field(s, 1, &dim);
    let tensor = move |t: &[u8]| map_field(t, 2, &shape);
    let ty = move |t: &[u8]| map_field(t, 1, &tensor);
    map_field(value_info, 2, &ty)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    pub(super) fn tensor(name: &str, dims: &[u64], values: &[f32]) -> Vec<u8> {
        let mut t = Vec::new();
        for &d in dims {
            put_key(&mut t, TENSOR_DIMS, VARINT);
            put_varint(&mut t, d);
        }
        put_key(&mut t, TENSOR_DATA_TYPE, VARINT);
        put_varint(&mut t, FLOAT);
        put_bytes(&mut t, 8, name.as_bytes());
        let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        put_bytes(&mut t, TENSOR_RAW_DATA, &raw);
        t
    }

    pub(super) fn floats(tensor: &[u8]) -> (Vec<u64>, Vec<f32>) {
        let fs = fields(tensor).unwrap();
        let dims = fs
            .iter()
            .filter(|f| f.number == TENSOR_DIMS)
            .map(|f| f.varint)
            .collect();
        let raw = fs
            .iter()
            .find(|f| f.number == TENSOR_RAW_DATA)
            .unwrap()
            .bytes;
        let values = raw
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        (dims, values)
    }

    fn conv_node() -> Vec<u8> {
        node_bytes(b"conv", b"Conv", &[b"x", b"w"], &[b"y"])
    }

    /// A model: a node, an unrelated initializer, a 2 x 4 classifier and its bias, an output of
    /// shape [N, 4], a value_info, and metadata.
    fn model() -> Vec<u8> {
        let mut dim_n = Vec::new();
        put_bytes(&mut dim_n, 2, b"N");
        let mut dim_c = Vec::new();
        put_key(&mut dim_c, 1, VARINT);
        put_varint(&mut dim_c, 4);
        let mut shape = Vec::new();
        put_bytes(&mut shape, 1, &dim_n);
        put_bytes(&mut shape, 1, &dim_c);
        let mut tt = Vec::new();
        put_key(&mut tt, 1, VARINT);
        put_varint(&mut tt, FLOAT);
        put_bytes(&mut tt, 2, &shape);
        let mut ty = Vec::new();
        put_bytes(&mut ty, 1, &tt);
        let mut output = Vec::new();
        put_bytes(&mut output, 1, b"probs");
        put_bytes(&mut output, 2, &ty);

        let mut graph = Vec::new();
        put_bytes(&mut graph, GRAPH_NODE, &conv_node());
        put_bytes(
            &mut graph,
            GRAPH_INITIALIZER,
            &tensor("other", &[3], &[7.0, 8.0, 9.0]),
        );
        put_bytes(
            &mut graph,
            GRAPH_INITIALIZER,
            &tensor("w", &[2, 4], &[0.0, 1.0, 2.0, 3.0, 10.0, 11.0, 12.0, 13.0]),
        );
        put_bytes(
            &mut graph,
            GRAPH_INITIALIZER,
            &tensor("b", &[4], &[0.5, 1.5, 2.5, 3.5]),
        );
        put_bytes(&mut graph, GRAPH_OUTPUT, &output);
        put_bytes(&mut graph, GRAPH_VALUE_INFO, &output);

        let mut entry = Vec::new();
        put_bytes(&mut entry, 1, b"character");
        put_bytes(&mut entry, 2, "1\n日\n".as_bytes());
        let mut m = graph_model(&graph);
        put_bytes(&mut m, MODEL_METADATA, &entry);
        m
    }

    /// A `ModelProto` of IR version 10 holding `graph`.
    pub(super) fn graph_model(graph: &[u8]) -> Vec<u8> {
        let mut m = Vec::new();
        put_key(&mut m, 1, VARINT);
        put_varint(&mut m, 10);
        put_bytes(&mut m, MODEL_GRAPH, graph);
        m
    }

    pub(super) fn graph_fields(model: &[u8]) -> Vec<(u32, Vec<u8>)> {
        let m = fields(model).unwrap();
        let g = m.iter().find(|f| f.number == MODEL_GRAPH).unwrap().bytes;
        fields(g)
            .unwrap()
            .into_iter()
            .map(|f| (f.number, f.bytes.to_vec()))
            .collect()
    }

    #[test]
    fn varints_round_trip() {
        for v in [
            0u64,
            1,
            127,
            128,
            300,
            18_710,
            u64::from(u32::MAX),
            u64::MAX,
        ] {
            let mut b = Vec::new();
            put_varint(&mut b, v);
            let mut pos = 0;
            assert_eq!(read_varint(&b, &mut pos).unwrap(), v);
            assert_eq!(pos, b.len());
        }
        assert!(read_varint(&[0x80], &mut 0).is_err());
    }

    #[test]
    fn reads_metadata() {
        let m = model();
        assert_eq!(
            metadata(&m, "character").unwrap().as_deref(),
            Some("1\n日\n")
        );
        assert_eq!(metadata(&m, "other").unwrap(), None);
    }

    #[test]
    fn keeps_the_chosen_columns_of_the_classifier_and_nothing_else_changes() {
        let m = model();
        let cut = keep_classes(&m, 4, &[0, 3]).unwrap();
        // Fields outside the graph, and the metadata, are untouched.
        assert_eq!(
            metadata(&cut, "character").unwrap(),
            metadata(&m, "character").unwrap()
        );
        let g = graph_fields(&cut);
        assert_eq!(g[0], (GRAPH_NODE, conv_node()));
        assert_eq!(floats(&g[1].1), (vec![3], vec![7.0, 8.0, 9.0]));
        assert_eq!(floats(&g[2].1), (vec![2, 2], vec![0.0, 3.0, 10.0, 13.0]));
        assert_eq!(floats(&g[3].1), (vec![2], vec![0.5, 3.5]));
        // The output's class dimension follows; the value_info hints are gone.
        assert_eq!(g.len(), 5);
        assert_eq!(g[4].0, GRAPH_OUTPUT);
        let out = output_dims(&g[4].1, 2, 4).unwrap();
        assert_eq!(
            out,
            graph_fields(&m)[4].1,
            "only the class dimension changed"
        );
        // Every field still parses.
        assert!(fields(&cut).is_ok());
    }

    #[test]
    fn refuses_models_without_exactly_one_classifier() {
        let m = model();
        // No initializer has 5 columns.
        let err = keep_classes(&m, 5, &[0]).unwrap_err().to_string();
        assert!(err.contains("found 0 and 0"), "{err}");
        assert!(keep_classes(&m, 4, &[]).is_err());
        assert!(keep_classes(&m, 4, &[4]).is_err());
        assert!(keep_classes(&m[..m.len() - 3], 4, &[0]).is_err());
    }

    fn node(op_type: &str, inputs: &[&str], outputs: &[&str]) -> Vec<u8> {
        fn bytes<'a>(v: &[&'a str]) -> Vec<&'a [u8]> {
            v.iter().map(|s| s.as_bytes()).collect()
        }
        node_bytes(
            format!("{op_type}-{}", outputs[0]).as_bytes(),
            op_type.as_bytes(),
            &bytes(inputs),
            &bytes(outputs),
        )
    }

    /// A node as [`nodes`] lists it.
    fn n(op_type: &str, inputs: &[&str], outputs: &[&str]) -> (String, Vec<String>, Vec<String>) {
        let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
        (op_type.to_string(), owned(inputs), owned(outputs))
    }

    /// `(op_type, inputs, outputs)` of the model's nodes, in order.
    fn nodes(model: &[u8]) -> Vec<(String, Vec<String>, Vec<String>)> {
        let text = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
        graph_fields(model)
            .into_iter()
            .filter(|(number, _)| *number == GRAPH_NODE)
            .map(|(_, bytes)| {
                let n = Node::parse(&bytes).unwrap();
                (
                    text(n.op_type),
                    n.inputs.iter().map(|b| text(b)).collect(),
                    n.outputs.iter().map(|b| text(b)).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn prelu_with_slopes_at_most_one_becomes_max_of_x_and_slope_x() {
        // Slopes stored as raw data and as float_data; one above 1; one computed; one
        // whose values are not in the file.
        let mut packed = Vec::new();
        put_bytes(&mut packed, TENSOR_NAME, b"s2");
        put_key(&mut packed, TENSOR_DATA_TYPE, VARINT);
        put_varint(&mut packed, FLOAT);
        let floats: Vec<u8> = [1.0f32, -3.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        put_bytes(&mut packed, TENSOR_FLOAT_DATA, &floats);
        let mut graph = Vec::new();
        for n in [
            node("Conv", &["in", "w"], &["x1"]),
            node("PRelu", &["x1", "s1"], &["y1"]),
            node("PRelu", &["y1", "s2"], &["y2"]),
            node("PRelu", &["y2", "steep"], &["y3"]),
            node("PRelu", &["y3", "y1"], &["y4"]),
            node("PRelu", &["y4", "elsewhere"], &["y5"]),
        ] {
            put_bytes(&mut graph, GRAPH_NODE, &n);
        }
        put_bytes(
            &mut graph,
            GRAPH_INITIALIZER,
            &tensor("s1", &[2, 1, 1], &[0.25, -0.8]),
        );
        put_bytes(&mut graph, GRAPH_INITIALIZER, &packed);
        put_bytes(
            &mut graph,
            GRAPH_INITIALIZER,
            &tensor("steep", &[1], &[1.5]),
        );
        // Data stored outside the file: unknown slopes.
        let mut elsewhere = Vec::new();
        put_bytes(&mut elsewhere, TENSOR_NAME, b"elsewhere");
        put_key(&mut elsewhere, TENSOR_DATA_TYPE, VARINT);
        put_varint(&mut elsewhere, FLOAT);
        put_bytes(&mut graph, GRAPH_INITIALIZER, &elsewhere);
        let m = graph_model(&graph);

        let (out, rewritten) = prelu_as_max(&m).unwrap();
        assert_eq!(rewritten, 2);
        assert_eq!(
            nodes(&out),
            vec![
                n("Conv", &["in", "w"], &["x1"]),
                n("Mul", &["x1", "s1"], &["raceshot/prelu/y1/slope_x"]),
                n("Max", &["x1", "raceshot/prelu/y1/slope_x"], &["y1"]),
                n("Mul", &["y1", "s2"], &["raceshot/prelu/y2/slope_x"]),
                n("Max", &["y1", "raceshot/prelu/y2/slope_x"], &["y2"]),
                n("PRelu", &["y2", "steep"], &["y3"]),
                n("PRelu", &["y3", "y1"], &["y4"]),
                n("PRelu", &["y4", "elsewhere"], &["y5"]),
            ]
        );
        // The initializers and the other model fields are untouched.
        let g = graph_fields(&out);
        assert_eq!(g.len(), 12);
        assert_eq!(&g[8..], &graph_fields(&m)[6..]);
        assert_eq!(
            fields(&out).unwrap()[0].encoded,
            fields(&m).unwrap()[0].encoded
        );
        // A model without PRelu comes back equal; a broken one is refused.
        assert_eq!(prelu_as_max(&model()).unwrap(), (model(), 0));
        assert!(prelu_as_max(&m[..m.len() - 2]).is_err());
    }

    #[test]
    fn rgb_input_is_cast_transposed_and_normalised_before_the_first_node() {
        let value_info = |name: &str| {
            let mut v = Vec::new();
            put_bytes(&mut v, VALUE_INFO_NAME, name.as_bytes());
            v
        };
        let mut graph = Vec::new();
        // An initializer listed among the inputs (older exports do that) comes first.
        put_bytes(&mut graph, GRAPH_INPUT, &value_info("w"));
        // The image: [N, 3, H, 640], so its width stays fixed.
        let mut image = value_info("image");
        let shape = shape_bytes(&[Err("N"), Ok(3), Err("H"), Ok(640)]);
        let mut tt = Vec::new();
        put_bytes(&mut tt, TENSOR_TYPE_SHAPE, &shape);
        let mut ty = Vec::new();
        put_bytes(&mut ty, TYPE_TENSOR, &tt);
        put_bytes(&mut image, VALUE_INFO_TYPE, &ty);
        put_bytes(&mut graph, GRAPH_INPUT, &image);
        put_bytes(
            &mut graph,
            GRAPH_NODE,
            &node("Conv", &["image", "w"], &["y"]),
        );
        put_bytes(&mut graph, GRAPH_INITIALIZER, &tensor("w", &[1], &[2.0]));
        put_bytes(&mut graph, GRAPH_OUTPUT, &value_info("y"));
        let m = graph_model(&graph);

        let (out, dims) = rgb_u8_input(&m, 127.5, 128.0, false).unwrap();
        assert_eq!(dims, vec![-1, 3, -1, 640]);
        assert_eq!(
            nodes(&out),
            vec![
                n("Cast", &["raceshot/rgb"], &["raceshot/rgb/float"]),
                n("Transpose", &["raceshot/rgb/float"], &["raceshot/rgb/nchw"]),
                n(
                    "Sub",
                    &["raceshot/rgb/nchw", "raceshot/rgb/mean"],
                    &["raceshot/rgb/centred"]
                ),
                n(
                    "Mul",
                    &["raceshot/rgb/centred", "raceshot/rgb/inv_std"],
                    &["image"]
                ),
                n("Conv", &["image", "w"], &["y"]),
            ]
        );
        let g = graph_fields(&out);
        let of = |number: u32| -> Vec<Vec<u8>> {
            g.iter()
                .filter(|(n, _)| *n == number)
                .map(|(_, b)| b.clone())
                .collect()
        };
        // The cast's and the transpose's attributes.
        let attributes: Vec<Vec<u8>> = of(GRAPH_NODE)[..2]
            .iter()
            .map(|node| {
                fields(node)
                    .unwrap()
                    .into_iter()
                    .find(|f| f.number == NODE_ATTRIBUTE)
                    .unwrap()
                    .bytes
                    .to_vec()
            })
            .collect();
        assert_eq!(
            attributes,
            vec![
                int_attribute(b"to", FLOAT),
                ints_attribute(b"perm", &[0, 3, 1, 2])
            ]
        );
        // The constants, then the model's own initializer.
        let inits = of(GRAPH_INITIALIZER);
        assert_eq!(inits.len(), 3);
        assert_eq!(floats(&inits[0]), (vec![], vec![127.5]));
        assert_eq!(floats(&inits[1]), (vec![], vec![0.0078125]));
        assert_eq!(inits[2], tensor("w", &[1], &[2.0]));
        // The image input is now 8-bit RGB rows; the other input and the output stay.
        assert_eq!(
            of(GRAPH_INPUT),
            vec![value_info("w"), rgb_value_info(None, Some(640))]
        );
        assert_eq!(
            tensor_dims(&rgb_value_info(None, Some(640))).unwrap(),
            vec![1, -1, 640, 3]
        );
        assert_eq!(of(GRAPH_OUTPUT), vec![value_info("y")]);
        // For a network trained on BGR images the channels are reversed after the cast.
        let (bgr, _) = rgb_u8_input(&m, 0.0, 1.0, true).unwrap();
        assert_eq!(
            nodes(&bgr)[1..3],
            [
                n(
                    "Gather",
                    &["raceshot/rgb/float", "raceshot/rgb/bgr_order"],
                    &["raceshot/rgb/bgr"]
                ),
                n("Transpose", &["raceshot/rgb/bgr"], &["raceshot/rgb/nchw"]),
            ]
        );
        // A model whose inputs are all initializers, and a broken one, are refused.
        let mut only_w = Vec::new();
        put_bytes(&mut only_w, GRAPH_INPUT, &value_info("w"));
        put_bytes(&mut only_w, GRAPH_INITIALIZER, &tensor("w", &[1], &[2.0]));
        let mut m2 = Vec::new();
        put_bytes(&mut m2, MODEL_GRAPH, &only_w);
        assert!(rgb_u8_input(&m2, 127.5, 128.0, false).is_err());
        assert!(rgb_u8_input(&m[..m.len() - 2], 127.5, 128.0, false).is_err());
    }
}
