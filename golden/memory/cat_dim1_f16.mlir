entry @cat_dim1_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>, %arg2: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
  %6 = make_partition_view %5 : partition_view<tile=(32x32), padding_value = zero, tensor_view<32x32xf16, strides=[32,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(32x32), padding_value = zero, tensor_view<32x32xf16, strides=[32,1]>>, tile<i32> -> tile<32x32xf16>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %10 = make_tensor_view %9, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
  %11 = make_partition_view %10 : partition_view<tile=(32x32), padding_value = zero, tensor_view<32x32xf16, strides=[32,1]>>
  %12, %13 = load_view_tko weak %11[%1, %2] token = %8 : partition_view<tile=(32x32), padding_value = zero, tensor_view<32x32xf16, strides=[32,1]>>, tile<i32> -> tile<32x32xf16>, token
  %14 = cat %7, %12 dim = 1 : tile<32x32xf16>, tile<32x32xf16> -> tile<32x64xf16>
  %15 = assume div_by<16>, %arg2 : tile<ptr<f16>>
  %16 = make_tensor_view %15, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xf16, strides=[64,1]>
  %17 = make_partition_view %16 : partition_view<tile=(32x64), padding_value = zero, tensor_view<32x64xf16, strides=[64,1]>>
  %18 = store_view_tko weak %14, %17[%1, %2] token = %13 : tile<32x64xf16>, partition_view<tile=(32x64), padding_value = zero, tensor_view<32x64xf16, strides=[64,1]>>, tile<i32> -> token
  return
}
